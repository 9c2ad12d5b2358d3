//===- PrintSink.h - Where tfc::print output goes ---------------*- C++ -*-===//
//
// One sink for run-time prints, shared by eager `tfc::print` and by
// `tfc.print` in compiled code, so `set_print_sink` redirects both.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_PRINTSINK_H
#define TFC_RUNTIME_PRINTSINK_H

#include <functional>
#include <string_view>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc {
/// Writes one line (without its trailing newline) to the current sink.
void print_line(std::string_view line);
/// Replaces the sink; an empty function restores the default (stdout).
void set_runtime_print_sink(std::function<void(std::string_view)> sink);
} // namespace tfc
#pragma GCC visibility pop

#endif // TFC_RUNTIME_PRINTSINK_H
