//===- Error.h - The tfc error hierarchy ------------------------*- C++ -*-===//
//
// Every failure that reaches a user is a tfc::Error. Nothing in tfc aborts on
// user input.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_ERROR_H
#define TFC_RUNTIME_ERROR_H

#include <stdexcept>
#include <string>

namespace tfc {

/// Base of every error tfc throws.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};
/// Bad shapes, dtypes or arguments.
class InvalidArgumentError : public Error {
public:
  using Error::Error;
};
/// IR that fails to verify or lower; carries the MLIR diagnostics.
class CompileError : public Error {
public:
  using Error::Error;
};
/// Failures while running (a failed assert_true, a missing driver, ...).
class RuntimeError : public Error {
public:
  using Error::Error;
};

} // namespace tfc

#endif // TFC_RUNTIME_ERROR_H
