#include "matching/cpu_descriptor_matcher.h"

#include <algorithm>
#include <cmath>

#include "core/parallel_for.h"
#include "matching/nearest_two.h"

namespace proj {
namespace {

// Ratio test on L2 distances of unit vectors: d^2 = 2 - 2 dot.
bool PassesRatio(const NearestTwo& b, double max_ratio) {
  if (b.best_index < 0) return false;
  const double d1 = std::sqrt(std::max(0.0, 2.0 - 2.0 * b.best));
  const double d2 = std::sqrt(std::max(0.0, 2.0 - 2.0 * b.second));
  return d1 < max_ratio * d2;
}

}  // namespace

namespace {

// Ratio test and cross-check on the nearest neighbours of every row and column.
std::vector<FeatureMatch> MatchesFromNearest(const std::vector<NearestTwo>& rows,
                                             const std::vector<NearestTwo>& columns,
                                             double max_ratio, bool cross_check) {
  std::vector<FeatureMatch> matches;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    if (!PassesRatio(rows[i], max_ratio)) continue;
    const int j = rows[i].best_index;
    if (cross_check && columns[j].best_index != i) continue;
    matches.push_back({i, j});
  }
  return matches;
}

// One unit of work: rows [row_begin, row_end) of a pair's first image against all of the
// second's.
struct RowBlock {
  int pair = 0;
  int row_begin = 0, row_end = 0;
  std::vector<NearestTwo> rows, columns;
};

// The units: whole pairs, except that the last pairs (as many as would leave threads idle at
// the end: 55 pairs on 2 threads, one) are split into one row block per thread.
std::vector<RowBlock> PlanRowBlocks(const std::vector<DescriptorMatrix>& descriptors,
                                    const std::vector<ImagePair>& pairs, int num_threads) {
  const int num_pairs = static_cast<int>(pairs.size());
  const int tail = num_threads > 1 ? num_pairs % num_threads : 0;
  std::vector<RowBlock> blocks;
  for (int p = 0; p < num_pairs; ++p) {
    const int n1 = static_cast<int>(descriptors[pairs[p].image1].rows());
    const int parts = p >= num_pairs - tail ? num_threads : 1;
    for (int k = 0; k < parts; ++k) {
      RowBlock block;
      block.pair = p;
      block.row_begin = static_cast<int>(static_cast<long long>(n1) * k / parts);
      block.row_end = static_cast<int>(static_cast<long long>(n1) * (k + 1) / parts);
      blocks.push_back(std::move(block));
    }
  }
  return blocks;
}

// The column state of rows fed in increasing order, from that of an earlier and of a later
// block of rows: as NearestTwo::Offer would have left it (ties keep the earlier row).
void MergeLaterRows(const NearestTwo& later, NearestTwo* earlier) {
  earlier->Offer(later.best, later.best_index);
  if (later.second > earlier->second) earlier->second = later.second;
}

}  // namespace

std::vector<FeatureMatch> MatchDescriptorsCpu(const DescriptorMatrix& descriptors1,
                                              const DescriptorMatrix& descriptors2,
                                              double max_ratio, bool cross_check) {
  const int n1 = static_cast<int>(descriptors1.rows());
  const int n2 = static_cast<int>(descriptors2.rows());
  if (n1 < 2 || n2 < 2) return {};
  std::vector<NearestTwo> rows, columns;
  FindNearestTwo(descriptors1, descriptors2, &rows, cross_check ? &columns : nullptr);
  return MatchesFromNearest(rows, columns, max_ratio, cross_check);
}

CpuDescriptorMatcher::CpuDescriptorMatcher(const DescriptorMatchOptions& options)
    : options_(options) {
  options_.Check();
}

std::vector<std::vector<FeatureMatch>> CpuDescriptorMatcher::MatchPairs(
    const FeatureSetViews& features, const std::vector<ImagePair>& pairs, Progress* progress) {
  // Normalise each image's descriptors once, only for images that appear in a pair.
  std::vector<char> used(features.size(), 0);
  for (const auto& pair : pairs) used[pair.image1] = used[pair.image2] = 1;
  std::vector<DescriptorMatrix> normalized(features.size());
  ParallelFor(0, static_cast<int>(features.size()), options_.num_threads, [&](int i, int) {
    if (used[i]) normalized[i] = NormalizedDescriptors(*features[i], options_.root_sift);
  });
  std::vector<RowBlock> blocks = PlanRowBlocks(normalized, pairs, ResolveNumThreads(options_.num_threads));
  std::vector<std::vector<FeatureMatch>> result(pairs.size());
  ParallelFor(0, static_cast<int>(blocks.size()), options_.num_threads, [&](int b, int) {
    RowBlock& block = blocks[b];
    const DescriptorMatrix& first = normalized[pairs[block.pair].image1];
    const DescriptorMatrix& second = normalized[pairs[block.pair].image2];
    const bool whole = block.row_begin == 0 && block.row_end == first.rows();
    if (first.rows() < 2 || second.rows() < 2) {
      if (whole && progress) progress->Advance();
      return;
    }
    std::vector<NearestTwo>* columns = options_.cross_check ? &block.columns : nullptr;
    if (whole) {
      // Matched at once: only the split pairs' neighbours are kept until all their blocks are in.
      FindNearestTwo(first, second, &block.rows, columns);
      result[block.pair] = MatchesFromNearest(block.rows, block.columns, options_.max_ratio, options_.cross_check);
      block.rows = {};
      block.columns = {};
      if (progress) progress->Advance();
      return;
    }
    const DescriptorMatrix part = first.middleRows(block.row_begin, block.row_end - block.row_begin);
    FindNearestTwo(part, second, &block.rows, columns);
  });
  // The split pairs' blocks, in row order: rows concatenated, column states merged.
  for (size_t b = 0; b < blocks.size();) {
    const int p = blocks[b].pair;
    size_t end = b + 1;
    while (end < blocks.size() && blocks[end].pair == p) ++end;
    if (end - b > 1 && !blocks[b].rows.empty()) {
      std::vector<NearestTwo> rows = std::move(blocks[b].rows), columns = std::move(blocks[b].columns);
      for (size_t k = b + 1; k < end; ++k) {
        rows.insert(rows.end(), blocks[k].rows.begin(), blocks[k].rows.end());
        for (size_t j = 0; j < columns.size(); ++j) {
          NearestTwo later = blocks[k].columns[j];
          // A block's row indices count from its first row.
          if (later.best_index >= 0) later.best_index += blocks[k].row_begin;
          MergeLaterRows(later, &columns[j]);
        }
      }
      result[p] = MatchesFromNearest(rows, columns, options_.max_ratio, options_.cross_check);
    }
    if (end - b > 1 && progress) progress->Advance();
    b = end;
  }
  return result;
}

}  // namespace proj
