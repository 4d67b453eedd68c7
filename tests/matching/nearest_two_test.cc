#include "matching/nearest_two.h"

#include <algorithm>
#include <random>

#include <gtest/gtest.h>

namespace proj {
namespace {

// Sparse SIFT-like uint8 descriptors as RootSIFT rows; the second half of `b` are noisy copies
// of rows of `a`, so that many rows have a clear nearest neighbour and the rest do not.
void MakeDescriptors(int n1, int n2, uint64_t seed, DescriptorMatrix* a, DescriptorMatrix* b) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(0, 120), zero(0, 3), noise(-4, 4);
  const auto random_set = [&](int count) {
    FeatureSet features;
    features.keypoints.resize(count);
    features.descriptors.resize(static_cast<size_t>(count) * kSiftDescriptorSize);
    for (uint8_t& d : features.descriptors) d = zero(rng) == 0 ? 0 : static_cast<uint8_t>(value(rng));
    return features;
  };
  const FeatureSet fa = random_set(n1);
  FeatureSet fb = random_set(n2);
  for (int j = n2 / 2; j < n2; ++j) {
    const int i = (j * 7) % n1;
    for (int k = 0; k < kSiftDescriptorSize; ++k) {
      fb.descriptors[static_cast<size_t>(j) * kSiftDescriptorSize + k] =
          static_cast<uint8_t>(std::clamp(fa.descriptor(i)[k] + noise(rng), 0, 255));
    }
  }
  *a = NormalizedDescriptors(fa, true);
  *b = NormalizedDescriptors(fb, true);
}

// The two implementations sum in different orders: dots agree to float rounding, and the
// best index agrees unless the best two are that close.
void ExpectSame(const std::vector<NearestTwo>& x, const std::vector<NearestTwo>& y) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(x[i].best, y[i].best, 1e-5f) << i;
    EXPECT_NEAR(x[i].second, y[i].second, 1e-5f) << i;
    if (x[i].best - x[i].second > 1e-5f) {
      EXPECT_EQ(x[i].best_index, y[i].best_index) << i;
    }
  }
}

TEST(NearestTwo, Avx2KernelAgreesWithGemmScan) {
  if (!NearestTwoAvx2Available()) GTEST_SKIP() << "this CPU has no AVX2/FMA";
  // Sizes off the kernel's tiles (6 x 16) and across its column blocks (512).
  for (const auto& [n1, n2] : {std::pair{1003, 1301}, std::pair{7, 5}, std::pair{1, 17}, std::pair{600, 1}}) {
    DescriptorMatrix a, b;
    MakeDescriptors(n1, n2, n1 + n2, &a, &b);
    std::vector<NearestTwo> rows_gemm, columns_gemm, rows_avx2, columns_avx2;
    FindNearestTwoGeneric(a, b, &rows_gemm, &columns_gemm);
    FindNearestTwoAvx2(a, b, &rows_avx2, &columns_avx2);
    ExpectSame(rows_gemm, rows_avx2);
    ExpectSame(columns_gemm, columns_avx2);
    std::vector<NearestTwo> rows_only;
    FindNearestTwoAvx2(a, b, &rows_only, nullptr);
    ASSERT_EQ(rows_only.size(), rows_avx2.size());
    for (size_t i = 0; i < rows_only.size(); ++i) EXPECT_EQ(rows_only[i].best_index, rows_avx2[i].best_index);
  }
}

TEST(NearestTwo, TiesKeepTheFirstIndexAndFillSecond) {
  // b: copies of a's row 0 in columns 3 and 20 (different SIMD lanes, different tiles) and 37.
  DescriptorMatrix a, b;
  MakeDescriptors(9, 40, 5, &a, &b);
  for (int j : {3, 20, 37}) b.row(j) = a.row(0);
  a.row(4) = b.row(11);
  a.row(6) = b.row(11);  // two rows with the same nearest column: column 11 keeps row 4
  for (bool avx2 : {false, true}) {
    if (avx2 && !NearestTwoAvx2Available()) continue;
    std::vector<NearestTwo> rows, columns;
    (avx2 ? FindNearestTwoAvx2 : FindNearestTwoGeneric)(a, b, &rows, &columns);
    EXPECT_EQ(rows[0].best_index, 3) << avx2;
    EXPECT_EQ(rows[0].second, rows[0].best) << avx2;
    EXPECT_EQ(rows[4].best_index, 11) << avx2;
    EXPECT_EQ(columns[11].best_index, 4) << avx2;
    EXPECT_EQ(columns[11].second, columns[11].best) << avx2;
  }
}

TEST(NearestTwo, OneColumnLeavesNoSecond) {
  DescriptorMatrix a, b;
  MakeDescriptors(13, 1, 9, &a, &b);
  std::vector<NearestTwo> rows, columns;
  FindNearestTwo(a, b, &rows, &columns);
  for (const NearestTwo& row : rows) {
    EXPECT_EQ(row.best_index, 0);
    EXPECT_EQ(row.second, -2.0f);
  }
  ASSERT_EQ(columns.size(), 1u);
  EXPECT_GE(columns[0].best_index, 0);
}

}  // namespace
}  // namespace proj
