// FindNearestTwoAvx2: a register-tiled float kernel (6 rows of `a` x 16 rows of `b`, 12 AVX
// accumulators, as in the micro-kernels of BLIS/OpenBLAS) whose tiles of dot products are
// scanned for the nearest neighbours while still in cache. `b` is packed in panels of 16
// descriptors, dimension-major, so each step loads two vectors of `b` and broadcasts one
// value of each of the 6 rows of `a`. The row state is kept per SIMD lane (lane l sees the
// columns l, l + 8, ... in increasing order) and merged at the end; the column state is one
// lane per column, fed with the rows in increasing order. Compiled for AVX2/FMA through
// function attributes, so the rest of the build may target baseline x86-64.
#include "matching/nearest_two.h"

#include <algorithm>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PROJ_HAVE_X86_KERNEL 1
#endif

namespace proj {

#ifdef PROJ_HAVE_X86_KERNEL
namespace {

constexpr int kDims = kSiftDescriptorSize;
constexpr int kTileRows = 6;
constexpr int kTileColumns = 16;
// Columns of `b` per pass over `a`: 512 packed descriptors are 256 KiB, within L2.
constexpr int kBlockColumns = 512;
constexpr int kLanes = 8;

// Panels of kTileColumns descriptors, dimension-major: panel p holds b(16 p + j, k) at
// [p][k][j]; missing descriptors of the last panel are zeros.
std::vector<float> PackPanels(const DescriptorMatrix& b, int num_padded) {
  std::vector<float> packed(static_cast<size_t>(num_padded) * kDims, 0.0f);
  for (int c = 0; c < b.rows(); ++c) {
    float* panel = packed.data() + static_cast<size_t>(c / kTileColumns) * kTileColumns * kDims;
    const int j = c % kTileColumns;
    for (int k = 0; k < kDims; ++k) panel[k * kTileColumns + j] = b(c, k);
  }
  return packed;
}

// tile[r][j] = a_rows[r] . panel column j, each dot summed over k in increasing order.
__attribute__((target("avx2,fma"))) void DotTile(const float* const a_rows[kTileRows],
                                                  const float* panel,
                                                  float tile[kTileRows][kTileColumns]) {
  __m256 sum[kTileRows][2];
  for (int r = 0; r < kTileRows; ++r) sum[r][0] = sum[r][1] = _mm256_setzero_ps();
  for (int k = 0; k < kDims; ++k) {
    const __m256 b0 = _mm256_loadu_ps(panel + k * kTileColumns);
    const __m256 b1 = _mm256_loadu_ps(panel + k * kTileColumns + kLanes);
    for (int r = 0; r < kTileRows; ++r) {
      const __m256 value = _mm256_broadcast_ss(a_rows[r] + k);
      sum[r][0] = _mm256_fmadd_ps(value, b0, sum[r][0]);
      sum[r][1] = _mm256_fmadd_ps(value, b1, sum[r][1]);
    }
  }
  // Through memory: the scan's registers would otherwise push the accumulators out of them.
  for (int r = 0; r < kTileRows; ++r) {
    _mm256_storeu_ps(tile[r], sum[r][0]);
    _mm256_storeu_ps(tile[r] + kLanes, sum[r][1]);
  }
}

// Best-two update of 8 lanes: strict > keeps the earlier index on ties, and a tie moves the
// tied value into `second`, as NearestTwo::Offer does.
__attribute__((target("avx2,fma"))) inline void OfferLanes(__m256 dot, __m256i index, float* best,
                                                            float* second, int* best_index) {
  const __m256 old_best = _mm256_loadu_ps(best);
  const __m256 better = _mm256_cmp_ps(dot, old_best, _CMP_GT_OQ);
  _mm256_storeu_ps(second, _mm256_max_ps(_mm256_loadu_ps(second), _mm256_min_ps(dot, old_best)));
  _mm256_storeu_ps(best, _mm256_max_ps(old_best, dot));
  const __m256i old_index = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(best_index));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(best_index),
                      _mm256_blendv_epi8(old_index, index, _mm256_castps_si256(better)));
}

struct LaneState {
  std::vector<float> best, second;
  std::vector<int> best_index;
  explicit LaneState(size_t size) : best(size, -2.0f), second(size, -2.0f), best_index(size, -1) {}
};

// Row i's lanes merged into one NearestTwo: the largest best (the smallest index on ties), and
// as second the largest of the other values.
NearestTwo MergeLanes(const LaneState& lanes, size_t first) {
  int chosen = 0;
  for (int l = 1; l < kLanes; ++l) {
    const float value = lanes.best[first + l], chosen_value = lanes.best[first + chosen];
    const int index = lanes.best_index[first + l], chosen_index = lanes.best_index[first + chosen];
    if (value > chosen_value ||
        (value == chosen_value && index >= 0 && (chosen_index < 0 || index < chosen_index))) {
      chosen = l;
    }
  }
  NearestTwo merged;
  merged.best = lanes.best[first + chosen];
  merged.best_index = lanes.best_index[first + chosen];
  for (int l = 0; l < kLanes; ++l) {
    merged.second = std::max(merged.second, lanes.second[first + l]);
    if (l != chosen) merged.second = std::max(merged.second, lanes.best[first + l]);
  }
  return merged;
}

__attribute__((target("avx2,fma"))) void ScanTile(const float tile[kTileRows][kTileColumns],
                                                   int first_row, int num_rows, int first_column,
                                                   int num_columns, LaneState* rows,
                                                   LaneState* columns) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int half = 0; half < 2; ++half) {
    const int column = first_column + half * kLanes;
    const __m256i column_index = _mm256_add_epi32(_mm256_set1_epi32(column), lane);
    // Lanes past the last descriptor of `b` are never offered.
    const __m256 missing = _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(column_index, _mm256_set1_epi32(first_column + num_columns - 1)));
    const __m256 lowest = _mm256_set1_ps(std::numeric_limits<float>::lowest());
    for (int r = 0; r < num_rows; ++r) {
      const __m256 dot = _mm256_blendv_ps(_mm256_loadu_ps(tile[r] + half * kLanes), lowest, missing);
      const size_t row_lanes = static_cast<size_t>(first_row + r) * kLanes;
      OfferLanes(dot, column_index, &rows->best[row_lanes], &rows->second[row_lanes],
                 &rows->best_index[row_lanes]);
      if (columns != nullptr) {
        OfferLanes(dot, _mm256_set1_epi32(first_row + r), &columns->best[column],
                   &columns->second[column], &columns->best_index[column]);
      }
    }
  }
}

}  // namespace

bool NearestTwoAvx2Available() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

void FindNearestTwoAvx2(const DescriptorMatrix& a, const DescriptorMatrix& b,
                        std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns) {
  const int n1 = static_cast<int>(a.rows()), n2 = static_cast<int>(b.rows());
  rows->assign(n1, NearestTwo());
  if (columns != nullptr) columns->assign(n2, NearestTwo());
  if (n1 == 0 || n2 == 0) return;
  const int num_padded = (n2 + kTileColumns - 1) / kTileColumns * kTileColumns;
  const std::vector<float> packed = PackPanels(b, num_padded);
  LaneState row_lanes(static_cast<size_t>(n1) * kLanes);
  LaneState column_state(columns != nullptr ? num_padded : 0);
  float tile[kTileRows][kTileColumns];
  for (int block = 0; block < num_padded; block += kBlockColumns) {
    const int block_end = std::min(num_padded, block + kBlockColumns);
    for (int first_row = 0; first_row < n1; first_row += kTileRows) {
      const int num_rows = std::min(kTileRows, n1 - first_row);
      const float* a_rows[kTileRows];
      for (int r = 0; r < kTileRows; ++r) a_rows[r] = a.row(first_row + std::min(r, num_rows - 1)).data();
      for (int column = block; column < block_end; column += kTileColumns) {
        DotTile(a_rows, packed.data() + static_cast<size_t>(column) * kDims, tile);
        ScanTile(tile, first_row, num_rows, column, std::min(kTileColumns, n2 - column),
                 &row_lanes, columns != nullptr ? &column_state : nullptr);
      }
    }
  }
  for (int i = 0; i < n1; ++i) (*rows)[i] = MergeLanes(row_lanes, static_cast<size_t>(i) * kLanes);
  if (columns != nullptr) {
    for (int j = 0; j < n2; ++j) {
      (*columns)[j] = {column_state.best[j], column_state.second[j], column_state.best_index[j]};
    }
  }
}

#else

bool NearestTwoAvx2Available() { return false; }

void FindNearestTwoAvx2(const DescriptorMatrix& a, const DescriptorMatrix& b,
                        std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns) {
  FindNearestTwoGeneric(a, b, rows, columns);
}

#endif

}  // namespace proj
