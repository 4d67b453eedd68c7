#include "matching/nearest_two.h"

#include <algorithm>

namespace proj {

// Rows per GEMM block: bounds the scratch matrix to kBlockRows x N floats.
constexpr int kBlockRows = 256;

void FindNearestTwoGeneric(const DescriptorMatrix& a, const DescriptorMatrix& b,
                           std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns) {
  const int n1 = static_cast<int>(a.rows()), n2 = static_cast<int>(b.rows());
  rows->assign(n1, NearestTwo());
  if (columns != nullptr) columns->assign(n2, NearestTwo());
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> dots;
  for (int start = 0; start < n1; start += kBlockRows) {
    const int block_rows = std::min(kBlockRows, n1 - start);
    dots.noalias() = a.middleRows(start, block_rows) * b.transpose();
    for (int r = 0; r < block_rows; ++r) {
      const float* row = dots.row(r).data();
      NearestTwo& nearest = (*rows)[start + r];
      for (int c = 0; c < n2; ++c) {
        const float dot = row[c];
        if (dot > nearest.second) nearest.Offer(dot, c);
        if (columns != nullptr && dot > (*columns)[c].second) (*columns)[c].Offer(dot, start + r);
      }
    }
  }
}

void FindNearestTwo(const DescriptorMatrix& a, const DescriptorMatrix& b,
                    std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns) {
  static const bool avx2 = NearestTwoAvx2Available();
  if (avx2) {
    FindNearestTwoAvx2(a, b, rows, columns);
  } else {
    FindNearestTwoGeneric(a, b, rows, columns);
  }
}

}  // namespace proj
