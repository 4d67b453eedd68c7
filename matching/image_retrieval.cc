#include "matching/image_retrieval.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include <Eigen/Core>

#include "core/check.h"
#include "core/parallel_for.h"
#include "features/feature_types.h"

namespace proj {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Up to `count` descriptors of `list`, evenly spaced, as rows of floats.
RowMatrix EvenlySpaced(const DescriptorList& list, int count) {
  const int available = static_cast<int>(list.size() / kSiftDescriptorSize);
  const int taken = std::min(available, count);
  RowMatrix rows(taken, kSiftDescriptorSize);
  for (int r = 0; r < taken; ++r) {
    const size_t index = static_cast<size_t>(r) * available / taken;
    for (int c = 0; c < kSiftDescriptorSize; ++c) rows(r, c) = list[index * kSiftDescriptorSize + c];
  }
  return rows;
}

// Index of the nearest centre of each row (squared L2), through one matrix product.
std::vector<int> NearestCentres(const RowMatrix& rows, const RowMatrix& centres,
                                const Eigen::VectorXf& centre_norms, int num_threads) {
  std::vector<int> nearest(rows.rows());
  constexpr int kBlock = 256;
  const int blocks = static_cast<int>((rows.rows() + kBlock - 1) / kBlock);
  ParallelFor(0, blocks, num_threads, [&](int block, int /*worker*/) {
    const int begin = block * kBlock;
    const int count = std::min<int>(kBlock, static_cast<int>(rows.rows()) - begin);
    const Eigen::MatrixXf dots = rows.middleRows(begin, count) * centres.transpose();
    for (int r = 0; r < count; ++r) {
      int best = 0;
      float best_distance = centre_norms(0) - 2 * dots(r, 0);
      for (int c = 1; c < dots.cols(); ++c) {
        const float distance = centre_norms(c) - 2 * dots(r, c);
        if (distance < best_distance) {
          best_distance = distance;
          best = c;
        }
      }
      nearest[begin + r] = best;
    }
  });
  return nearest;
}

// Lloyd's k-means seeded by k-means++ (Arthur & Vassilvitskii, SODA 2007: each next centre a
// sample drawn with probability proportional to its squared distance to the nearest centre so
// far); an emptied centre restarts at a random sample.
RowMatrix KMeans(const RowMatrix& sample, int k, int iterations, uint64_t seed, int num_threads) {
  std::mt19937_64 rng(seed);
  const int n = static_cast<int>(sample.rows());
  std::uniform_int_distribution<int> any(0, n - 1);
  RowMatrix centres(k, kSiftDescriptorSize);
  centres.row(0) = sample.row(any(rng));
  std::vector<double> nearest_squared(n, std::numeric_limits<double>::infinity());
  for (int c = 1; c < k; ++c) {
    ParallelFor(0, n, num_threads, [&](int r, int /*worker*/) {
      nearest_squared[r] = std::min<double>(nearest_squared[r], (sample.row(r) - centres.row(c - 1)).squaredNorm());
    });
    double total = 0;
    for (double d : nearest_squared) total += d;
    int chosen = any(rng);
    if (total > 0) {
      double target = std::uniform_real_distribution<double>(0, total)(rng);
      for (int r = 0; r < n; ++r) {
        target -= nearest_squared[r];
        if (target <= 0) {
          chosen = r;
          break;
        }
      }
    }
    centres.row(c) = sample.row(chosen);
  }
  for (int iteration = 0; iteration < iterations; ++iteration) {
    const Eigen::VectorXf norms = centres.rowwise().squaredNorm();
    const std::vector<int> nearest = NearestCentres(sample, centres, norms, num_threads);
    RowMatrix sums = RowMatrix::Zero(k, kSiftDescriptorSize);
    std::vector<int> counts(k, 0);
    for (int r = 0; r < sample.rows(); ++r) {
      sums.row(nearest[r]) += sample.row(r);
      ++counts[nearest[r]];
    }
    for (int c = 0; c < k; ++c) {
      centres.row(c) = counts[c] > 0 ? RowMatrix(sums.row(c) / static_cast<float>(counts[c]))
                                     : RowMatrix(sample.row(any(rng)));
    }
  }
  return centres;
}

}  // namespace

void RetrievalOptions::Check() const {
  PROJ_REQUIRE(vocabulary_size >= 2, "RetrievalOptions.vocabulary_size must be >= 2");
  PROJ_REQUIRE(max_training_descriptors >= vocabulary_size,
               "RetrievalOptions.max_training_descriptors must be >= vocabulary_size");
  PROJ_REQUIRE(max_descriptors_per_image >= 1, "RetrievalOptions.max_descriptors_per_image must be >= 1");
  PROJ_REQUIRE(kmeans_iterations >= 1, "RetrievalOptions.kmeans_iterations must be >= 1");
}

void LoopPairOptions::Check() const {
  PROJ_REQUIRE(query_period >= 1, "--loop-query-period must be >= 1 (got " << query_period << ")");
  PROJ_REQUIRE(num_candidates >= 0, "--loop-candidates must be >= 0 (got " << num_candidates << ")");
  PROJ_REQUIRE(min_gap >= 1, "LoopPairOptions.min_gap must be >= 1 (got " << min_gap << ")");
  PROJ_REQUIRE(min_similarity >= 0 && min_similarity <= 1, "LoopPairOptions.min_similarity must be in [0, 1]");
}

std::vector<std::vector<float>> ComputeImageVectors(int num_images, const DescriptorSource& source,
                                                    const RetrievalOptions& options) {
  options.Check();
  PROJ_REQUIRE(num_images >= 0, "ComputeImageVectors: negative image count");
  // The k-means sample: an equal share of each image's descriptors.
  const int share = std::max(1, (options.max_training_descriptors + num_images - 1) / std::max(1, num_images));
  std::vector<RowMatrix> parts;
  Eigen::Index sample_rows = 0;
  for (int i = 0; i < num_images; ++i) {
    parts.push_back(EvenlySpaced(source(i), std::min(share, options.max_descriptors_per_image)));
    sample_rows += parts.back().rows();
  }
  // Fewer descriptors than words: as many words as descriptors (none: every vector zero).
  const int k = static_cast<int>(std::min<Eigen::Index>(options.vocabulary_size, sample_rows));
  std::vector<std::vector<float>> vectors(num_images, std::vector<float>(k, 0.0f));
  if (k == 0) return vectors;
  RowMatrix sample(sample_rows, kSiftDescriptorSize);
  Eigen::Index row = 0;
  for (const RowMatrix& part : parts) {
    sample.middleRows(row, part.rows()) = part;
    row += part.rows();
  }
  parts.clear();
  const RowMatrix centres = KMeans(sample, k, options.kmeans_iterations, options.seed, options.num_threads);
  const Eigen::VectorXf norms = centres.rowwise().squaredNorm();

  std::vector<int> images_with_word(k, 0);
  for (int i = 0; i < num_images; ++i) {
    const RowMatrix rows = EvenlySpaced(source(i), options.max_descriptors_per_image);
    if (rows.rows() == 0) continue;
    for (int word : NearestCentres(rows, centres, norms, options.num_threads)) vectors[i][word] += 1;
    for (int w = 0; w < k; ++w) images_with_word[w] += vectors[i][w] > 0 ? 1 : 0;
  }
  for (std::vector<float>& vector : vectors) {
    double squared = 0;
    for (int w = 0; w < k; ++w) {
      if (vector[w] == 0) continue;
      vector[w] *= static_cast<float>(std::log(static_cast<double>(num_images) / images_with_word[w]));
      squared += static_cast<double>(vector[w]) * vector[w];
    }
    if (squared == 0) continue;
    const float scale = static_cast<float>(1 / std::sqrt(squared));
    for (float& value : vector) value *= scale;
  }
  return vectors;
}

float ImageSimilarity(const std::vector<float>& a, const std::vector<float>& b) {
  PROJ_CHECK(a.size() == b.size(), "image vectors of different vocabularies");
  float dot = 0;
  for (size_t w = 0; w < a.size(); ++w) dot += a[w] * b[w];
  return dot;
}

std::vector<ImagePair> MostSimilarPairs(const std::vector<std::vector<float>>& vectors,
                                        const std::vector<int>& queries, int num_candidates,
                                        double min_similarity,
                                        const std::function<bool(int, int)>& eligible) {
  const int n = static_cast<int>(vectors.size());
  std::set<std::pair<int, int>> pairs;
  for (int query : queries) {
    PROJ_CHECK(query >= 0 && query < n, "query " << query << " out of range");
    std::vector<std::pair<float, int>> ranked;
    for (int other = 0; other < n; ++other) {
      if (other == query || !eligible(query, other)) continue;
      const float similarity = ImageSimilarity(vectors[query], vectors[other]);
      if (similarity >= min_similarity) ranked.emplace_back(similarity, other);
    }
    const size_t keep = std::min(ranked.size(), static_cast<size_t>(std::max(0, num_candidates)));
    std::partial_sort(ranked.begin(), ranked.begin() + keep, ranked.end(), [](const auto& a, const auto& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    for (size_t c = 0; c < keep; ++c) {
      pairs.insert({std::min(query, ranked[c].second), std::max(query, ranked[c].second)});
    }
  }
  std::vector<ImagePair> result;
  for (const auto& [a, b] : pairs) result.push_back(ImagePair{a, b});
  return result;
}

std::vector<ImagePair> SelectLoopPairs(const std::vector<std::vector<float>>& vectors,
                                       const LoopPairOptions& options) {
  options.Check();
  const int n = static_cast<int>(vectors.size());
  std::vector<int> queries;
  for (int query = 0; query < n; query += options.query_period) queries.push_back(query);
  if (n > 0 && queries.back() != n - 1) queries.push_back(n - 1);
  return MostSimilarPairs(vectors, queries, options.num_candidates, options.min_similarity,
                          [&](int query, int other) { return std::abs(other - query) >= options.min_gap; });
}

}  // namespace proj
