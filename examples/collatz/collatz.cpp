//===- collatz.cpp - Eager tensors driving ordinary C++ control flow ------===//
//
// The Collatz sequence: n -> n / 2 if n is even, else 3n + 1, until n == 1.
// Each step is eager tensor arithmetic; `.item<bool>()` turns a Bool tensor
// into a C++ bool so that plain `while` / `if` decide what runs next.
//
//   $ collatz        ->  collatz(27) = 111 steps
//   $ collatz 97     ->  collatz(97) = 118 steps
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char **argv) {
  int64_t start = 27;
  if (argc > 1) {
    char *end = nullptr;
    start = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || start < 1) {
      std::cerr << "usage: collatz [positive integer]\n";
      return 2;
    }
  }
  try {
    tfc::Tensor n = tfc::constant(start); // int64 scalar
    int64_t steps = 0;
    while ((n != 1).item<bool>()) {
      // floor_div is Python's // (tfc::div is true division, for floats).
      if ((n % 2 == 0).item<bool>())
        n = tfc::floor_div(n, 2);
      else
        n = 3 * n + 1;
      ++steps;
    }
    std::cout << "collatz(" << start << ") = " << steps << " steps\n";
  } catch (const tfc::Error &e) {
    std::cerr << "collatz: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
