//===- SourceLimits.cpp - Guards around parsing MLIR text ----------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//

#include "tfc/SourceLimits.h"
#include "tfc/runtime/Error.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <optional>
#include <vector>

using namespace tfc;

std::string tfc::jit::checkSourceNesting(std::string_view text,
                                         std::string_view bufferName,
                                         unsigned limit) {
  // The open brackets, innermost last. A closer pops up to its opener, so an
  // unbalanced '<' (never one in valid MLIR) cannot leak out of its parens.
  std::vector<char> open;
  size_t line = 1, lineStart = 0;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '/':
      if (i + 1 < n && text[i + 1] == '/')
        while (i + 1 < n && text[i + 1] != '\n')
          ++i;
      break;
    case '"':
      for (++i; i < n && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < n && text[i] == '\n') {
        ++line;
        lineStart = i + 1;
      }
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      open.push_back(c);
      if (open.size() > limit)
        return std::string(bufferName) + ":" + std::to_string(line) + ":" +
               std::to_string(i - lineStart + 1) +
               ": error: nesting deeper than " + std::to_string(limit) +
               " (brackets and regions); tfc rejects such input rather than "
               "risk a stack overflow";
      break;
    case '>':
      // '->' is an arrow, not a bracket.
      if (!open.empty() && open.back() == '<' && (i == 0 || text[i - 1] != '-'))
        open.pop_back();
      break;
    case ')':
    case ']':
    case '}': {
      char opener = c == ')' ? '(' : c == ']' ? '[' : '{';
      auto it = std::find(open.rbegin(), open.rend(), opener);
      if (it != open.rend())
        open.erase(std::next(it).base(), open.end());
      break;
    }
    default:
      break;
    }
  }
  return {};
}

mlir::OwningOpRef<mlir::ModuleOp>
tfc::jit::parseSourceGuarded(llvm::SourceMgr &sm, mlir::MLIRContext *ctx) {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  // The parser runs no code that throws; the thread only lends it a stack.
  llvm::thread parser(std::optional<unsigned>(64u << 20), [&] {
    module = mlir::parseSourceFile<mlir::ModuleOp>(sm, ctx);
  });
  parser.join();
  return module;
}

std::string tfc::jit::readSourceFile(const std::string &path,
                                     std::string_view what) {
  auto fail = [&](const std::string &why) -> InvalidArgumentError {
    std::string prefix = what.empty() ? "" : std::string(what) + ": ";
    return InvalidArgumentError(prefix + "cannot open '" + path + "': " + why);
  };
  if (llvm::sys::fs::is_directory(path))
    throw fail("it is a directory");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    throw fail(buffer.getError().message());
  return (*buffer)->getBuffer().str();
}
