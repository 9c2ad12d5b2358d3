//===- Log.h - TFC_LOG: what tfc reports on stderr --------------*- C++ -*-===//
//
// TFC_LOG is a comma-separated list of categories, each optionally prefixed
// with '-' to turn it off, applied left to right over the defaults:
//   retrace   one line per retrace of a tfc::function: which argument
//             changed and how (off by default; like TORCH_LOGS=recompiles)
//   warnings  the warning when one tfc::function traces too often (on)
//   timing    wall time of tracing and of each compile stage (off; also
//             TFC_TIMING=1)
//   all, none every category on / off
// e.g. TFC_LOG=retrace, TFC_LOG=-warnings, TFC_LOG=none,retrace.
// Only trace and compile paths consult it (it is read from the environment
// each time, so a process may change it); cached calls never do.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_LOG_H
#define TFC_RUNTIME_LOG_H

#include <string_view>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::logging {

enum class Category { Retrace, Warnings, Timing };

/// Whether `category` is on under the current TFC_LOG (and TFC_TIMING).
/// An unknown category name is reported once on stderr and ignored.
bool enabled(Category category);

/// Writes `line` (a newline is added) to stderr in one write, so lines
/// from concurrent threads do not interleave.
void emit(std::string_view line);

} // namespace tfc::logging
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LOG_H
