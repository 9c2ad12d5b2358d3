//===- RunTfcOpt.h - Run the tfc-opt tool from a test -----------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Tests that check what the compiler's tool does to a module (the tfc-opt
// binary links no libtfc.so, so a test process holding libtfc.so runs it as
// a child). The test target defines TFC_OPT_PATH to $<TARGET_FILE:tfc-opt>.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_UNITTESTS_RUNTFCOPT_H
#define TFC_UNITTESTS_RUNTFCOPT_H

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace tfc_test {

/// Runs `tfc-opt <args> <file holding input>`; returns its stdout, or ""
/// when it exits non-zero, with its stderr in `errors` either way.
inline std::string runTfcOpt(const std::string &input, const std::string &args,
                             std::string &errors) {
  char inPath[] = "/tmp/tfc-opt-test-XXXXXX";
  int fd = mkstemp(inPath);
  if (fd < 0) {
    errors = "mkstemp failed";
    return "";
  }
  FILE *in = fdopen(fd, "w");
  std::fputs(input.c_str(), in);
  std::fclose(in);
  std::string errPath = std::string(inPath) + ".err";
  std::string cmd =
      std::string(TFC_OPT_PATH) + " " + args + " " + inPath + " 2>" + errPath;
  std::string out;
  FILE *pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while (pipe && (n = std::fread(buf, 1, sizeof(buf), pipe)) > 0)
    out.append(buf, n);
  int status = pipe ? pclose(pipe) : -1;
  if (FILE *err = std::fopen(errPath.c_str(), "r")) {
    while ((n = std::fread(buf, 1, sizeof(buf), err)) > 0)
      errors.append(buf, n);
    std::fclose(err);
  }
  std::remove(inPath);
  std::remove(errPath.c_str());
  return status == 0 ? out : "";
}

} // namespace tfc_test

#endif // TFC_UNITTESTS_RUNTFCOPT_H
