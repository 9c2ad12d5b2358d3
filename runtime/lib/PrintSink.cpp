//===- PrintSink.cpp - Where tfc::print output goes -------------*- C++ -*-===//
#include "tfc/runtime/PrintSink.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace {
std::mutex sinkMutex;
std::function<void(std::string_view)> &sink() {
  static std::function<void(std::string_view)> s;
  return s;
}
} // namespace

void tfc::print_line(std::string_view line) {
  std::lock_guard<std::mutex> lock(sinkMutex);
  if (sink()) {
    sink()(line);
    return;
  }
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

void tfc::set_runtime_print_sink(std::function<void(std::string_view)> s) {
  std::lock_guard<std::mutex> lock(sinkMutex);
  sink() = std::move(s);
}
