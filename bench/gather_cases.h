//===- gather_cases.h - Embedding shapes of the gather bench ----*- C++ -*-===//
//
// Shared by bench_gather.cpp and bench_gather_torch.cpp: a 50,000 x 256
// float32 table and 4,096 int64 ids (uniform over the rows, so some repeat),
// the embedding lookup of issue 15. Bytes are what each op must move:
// forward reads the ids and 4,096 rows and writes them; the dense gradient
// writes the whole table once (zeros plus the scattered rows) and reads dy
// and the ids.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_GATHER_CASES_H
#define TFC_BENCH_GATHER_CASES_H

#include <cstdint>
#include <random>
#include <vector>

namespace gatherbench {

constexpr int64_t kRows = 50000, kDim = 256, kIds = 4096;

inline std::vector<float> randomFloats(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(static_cast<size_t>(n));
  for (float &x : v)
    x = d(rng);
  return v;
}

inline std::vector<int64_t> randomIds(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> d(0, kRows - 1);
  std::vector<int64_t> v(kIds);
  for (int64_t &x : v)
    x = d(rng);
  return v;
}

inline double forwardBytes() { return (2.0 * kIds * kDim + kIds * 2) * 4; }
inline double gradBytes() {
  return (double(kRows) * kDim + kIds * kDim + kIds * 2) * 4;
}

} // namespace gatherbench

#endif // TFC_BENCH_GATHER_CASES_H
