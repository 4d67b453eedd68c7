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

std::vector<FeatureMatch> MatchDescriptorsCpu(const DescriptorMatrix& descriptors1,
                                              const DescriptorMatrix& descriptors2,
                                              double max_ratio, bool cross_check) {
  const int n1 = static_cast<int>(descriptors1.rows());
  const int n2 = static_cast<int>(descriptors2.rows());
  std::vector<FeatureMatch> matches;
  if (n1 < 2 || n2 < 2) return matches;
  std::vector<NearestTwo> rows, columns;
  FindNearestTwo(descriptors1, descriptors2, &rows, cross_check ? &columns : nullptr);
  for (int i = 0; i < n1; ++i) {
    if (!PassesRatio(rows[i], max_ratio)) continue;
    const int j = rows[i].best_index;
    if (cross_check && columns[j].best_index != i) continue;
    matches.push_back({i, j});
  }
  return matches;
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
  std::vector<std::vector<FeatureMatch>> result(pairs.size());
  ParallelFor(0, static_cast<int>(pairs.size()), options_.num_threads, [&](int p, int) {
    result[p] = MatchDescriptorsCpu(normalized[pairs[p].image1], normalized[pairs[p].image2],
                                    options_.max_ratio, options_.cross_check);
    if (progress) progress->Advance();
  });
  return result;
}

}  // namespace proj
