#include "sfm/partition/image_partition.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <queue>
#include <tuple>
#include <utility>

#include <Eigen/Eigenvalues>

#include "core/check.h"

namespace proj {

void PartitionOptions::Check() const {
  PROJ_REQUIRE(num_parts >= 1, "the number of parts must be at least 1 (got " << num_parts << ")");
  PROJ_REQUIRE(overlap_share >= 0, "the parts' overlap share must not be negative (got " << overlap_share << ")");
  PROJ_REQUIRE(min_overlap_images >= 0, "the parts' minimum overlap must not be negative");
  PROJ_REQUIRE(min_overlap_per_neighbour >= 0, "the parts' minimum overlap per neighbour must not be negative");
  PROJ_REQUIRE(min_position_share >= 0 && min_position_share <= 1,
               "the share of images with GPS that cuts parts by position must be in [0, 1]");
}

namespace {

using Adjacency = std::vector<std::vector<std::pair<int, int>>>;  // (neighbour, weight)

constexpr int kUnreached = std::numeric_limits<int>::max();

// How many of `count` items the first of the halves of a k-way cut takes (k1 = k / 2 parts).
size_t FirstHalfSize(size_t count, int k) {
  const int k1 = k / 2;
  return static_cast<size_t>(std::llround(static_cast<double>(count) * k1 / k));
}

// Recursive bisection of `images` into k parts numbered from *next_part on, along the principal
// axis of their positions.
void BisectByPosition(std::vector<int> images, int k, const std::vector<std::optional<Eigen::Vector2d>>& positions,
                      int* next_part, std::vector<int>* core_part) {
  if (k == 1 || images.size() <= 1) {
    for (int image : images) (*core_part)[image] = *next_part;
    ++*next_part;
    return;
  }
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (int image : images) mean += *positions[image];
  mean /= static_cast<double>(images.size());
  Eigen::Matrix2d covariance = Eigen::Matrix2d::Zero();
  for (int image : images) {
    const Eigen::Vector2d d = *positions[image] - mean;
    covariance += d * d.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> solver(covariance);
  const Eigen::Vector2d axis = solver.eigenvectors().col(1);  // largest eigenvalue last
  std::vector<std::pair<double, int>> keyed;
  for (int image : images) keyed.emplace_back(axis.dot(*positions[image] - mean), image);
  std::sort(keyed.begin(), keyed.end());
  const size_t split = FirstHalfSize(images.size(), k);
  std::vector<int> first, second;
  for (size_t i = 0; i < keyed.size(); ++i) (i < split ? first : second).push_back(keyed[i].second);
  BisectByPosition(std::move(first), k / 2, positions, next_part, core_part);
  BisectByPosition(std::move(second), k - k / 2, positions, next_part, core_part);
}

// Breadth-first hop distances from `source` within the images `member` marks.
std::vector<int> HopDistances(const Adjacency& adjacency, const std::vector<char>& member, int source) {
  std::vector<int> distance(adjacency.size(), kUnreached);
  std::queue<int> queue;
  distance[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    const int image = queue.front();
    queue.pop();
    for (const auto& [neighbour, weight] : adjacency[image]) {
      if (!member[neighbour] || distance[neighbour] != kUnreached) continue;
      distance[neighbour] = distance[image] + 1;
      queue.push(neighbour);
    }
  }
  return distance;
}

// The reached image farthest from `source` (ties: the lowest index).
int Farthest(const std::vector<int>& images, const std::vector<int>& distance) {
  int best = images.front();
  for (int image : images) {
    if (distance[image] != kUnreached && (distance[best] == kUnreached || distance[image] > distance[best])) {
      best = image;
    }
  }
  return best;
}

// Recursive bisection of `images` (sorted) into k parts by the view graph's level structure:
// sorted by the difference of their hop distances from two far-apart images a and b, so the
// first half is the side of a. Images the graph does not connect to a come last.
void BisectByGraph(const std::vector<int>& images, int k, const Adjacency& adjacency, std::vector<char>* member,
                   int* next_part, std::vector<int>* core_part) {
  if (k == 1 || images.size() <= 1) {
    for (int image : images) (*core_part)[image] = *next_part;
    ++*next_part;
    return;
  }
  for (int image : images) (*member)[image] = 1;
  // A pseudo-peripheral pair: from the first image to the farthest, and from there again.
  const int a = Farthest(images, HopDistances(adjacency, *member, images.front()));
  const std::vector<int> from_a = HopDistances(adjacency, *member, a);
  const int b = Farthest(images, from_a);
  const std::vector<int> from_b = HopDistances(adjacency, *member, b);
  for (int image : images) (*member)[image] = 0;
  std::vector<std::tuple<int64_t, int64_t, int>> keyed;  // (unreached, da - db, index)
  for (int image : images) {
    const bool reached = from_a[image] != kUnreached;
    keyed.emplace_back(reached ? 0 : 1, reached ? int64_t{from_a[image]} - from_b[image] : 0, image);
  }
  std::sort(keyed.begin(), keyed.end());
  const size_t split = FirstHalfSize(images.size(), k);
  std::vector<int> first, second;
  for (size_t i = 0; i < keyed.size(); ++i) (i < split ? first : second).push_back(std::get<2>(keyed[i]));
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  BisectByGraph(first, k / 2, adjacency, member, next_part, core_part);
  BisectByGraph(second, k - k / 2, adjacency, member, next_part, core_part);
}

// Images without a core part (-1) join the core of the part they share most matches with,
// most connected first; images matched to none join the smallest core.
void AssignByMatches(const Adjacency& adjacency, int num_parts, std::vector<int>* core_part) {
  const int num_images = static_cast<int>(core_part->size());
  std::priority_queue<std::pair<int64_t, int>> queue;  // (matches to assigned images, -image)
  auto strength = [&](int image) {
    int64_t total = 0;
    for (const auto& [neighbour, weight] : adjacency[image]) total += (*core_part)[neighbour] >= 0 ? weight : 0;
    return total;
  };
  for (int image = 0; image < num_images; ++image) {
    if ((*core_part)[image] < 0) queue.emplace(strength(image), -image);
  }
  while (!queue.empty()) {
    const auto [score, negated] = queue.top();
    queue.pop();
    const int image = -negated;
    if ((*core_part)[image] >= 0 || score != strength(image)) continue;  // stale entry
    if (score == 0) break;  // the rest are not matched to any assigned image
    std::vector<int64_t> by_part(num_parts, 0);
    for (const auto& [neighbour, weight] : adjacency[image]) {
      if ((*core_part)[neighbour] >= 0) by_part[(*core_part)[neighbour]] += weight;
    }
    (*core_part)[image] = static_cast<int>(std::max_element(by_part.begin(), by_part.end()) - by_part.begin());
    for (const auto& [neighbour, weight] : adjacency[image]) {
      if ((*core_part)[neighbour] < 0) queue.emplace(strength(neighbour), -neighbour);
    }
  }
  std::vector<int> core_size(num_parts, 0);
  for (int part : *core_part) {
    if (part >= 0) ++core_size[part];
  }
  for (int image = 0; image < num_images; ++image) {
    if ((*core_part)[image] >= 0) continue;
    const int smallest = static_cast<int>(std::min_element(core_size.begin(), core_size.end()) - core_size.begin());
    (*core_part)[image] = smallest;
    ++core_size[smallest];
  }
}

// The core of `part` grown by about `target` images, the one with most matches to the grown
// part first (greedy, so the overlap is a compact strip along the core's border), shared out
// over the neighbouring cores by the length of the border with each (its images matched to
// the core), at least min_per_neighbour from each: by weight alone the strip follows the
// flight lines (forward overlap matches more than side overlap), and a nadir flight's two
// halves were joined by 3 images, its parts merged 0.18% apart in scale.
std::vector<int> GrowPart(const Adjacency& adjacency, const std::vector<int>& core_part, int num_parts, int part,
                          int target, int min_per_neighbour) {
  const int num_images = static_cast<int>(core_part.size());
  std::vector<int> border(num_parts, 0);  // per neighbouring core, its images matched to this core
  for (int image = 0; image < num_images; ++image) {
    if (core_part[image] == part) continue;
    for (const auto& [neighbour, weight] : adjacency[image]) {
      if (core_part[neighbour] == part) {
        ++border[core_part[image]];
        break;
      }
    }
  }
  const int64_t border_total = std::accumulate(border.begin(), border.end(), int64_t{0});
  std::vector<int> quota(num_parts, 0);
  for (int other = 0; other < num_parts; ++other) {
    if (border[other] == 0) continue;
    const int share = static_cast<int>(std::ceil(static_cast<double>(target) * border[other] / border_total));
    quota[other] = std::max(share, std::min(min_per_neighbour, border[other]));
  }
  std::vector<char> in_part(num_images, 0);
  std::vector<int64_t> score(num_images, 0);
  std::priority_queue<std::pair<int64_t, int>> queue;  // (score, -image)
  std::vector<int> images;
  auto add = [&](int image) {
    in_part[image] = 1;
    images.push_back(image);
    for (const auto& [neighbour, weight] : adjacency[image]) {
      if (in_part[neighbour]) continue;
      score[neighbour] += weight;
      queue.emplace(score[neighbour], -neighbour);
    }
  };
  for (int image = 0; image < num_images; ++image) {
    if (core_part[image] == part) add(image);
  }
  while (!queue.empty()) {
    const auto [image_score, negated] = queue.top();
    queue.pop();
    const int image = -negated;
    if (in_part[image] || image_score != score[image]) continue;  // taken, or a stale entry
    if (quota[core_part[image]] == 0) continue;  // that border's share is taken
    --quota[core_part[image]];
    add(image);
  }
  std::sort(images.begin(), images.end());
  return images;
}

}  // namespace

ImagePartition PartitionImages(const PartitionOptions& options, int num_images,
                               const std::vector<std::optional<Eigen::Vector2d>>& positions,
                               const std::vector<WeightedImagePair>& pairs) {
  options.Check();
  PROJ_REQUIRE(positions.empty() || static_cast<int>(positions.size()) == num_images,
               "positions for " << positions.size() << " images, expected " << num_images);
  Adjacency adjacency(num_images);
  for (const WeightedImagePair& pair : pairs) {
    PROJ_REQUIRE(pair.image1 >= 0 && pair.image1 < num_images && pair.image2 >= 0 && pair.image2 < num_images &&
                     pair.image1 != pair.image2,
                 "pair (" << pair.image1 << ", " << pair.image2 << ") out of range for " << num_images << " images");
    adjacency[pair.image1].emplace_back(pair.image2, pair.weight);
    adjacency[pair.image2].emplace_back(pair.image1, pair.weight);
  }
  ImagePartition partition;
  const int num_parts = std::max(1, std::min(options.num_parts, num_images));
  partition.core_part.assign(num_images, -1);
  std::vector<int> positioned;
  for (int image = 0; image < static_cast<int>(positions.size()); ++image) {
    if (positions[image]) positioned.push_back(image);
  }
  int next_part = 0;
  partition.by_position =
      num_parts > 1 && !positioned.empty() &&
      static_cast<double>(positioned.size()) >= options.min_position_share * num_images &&
      static_cast<int>(positioned.size()) >= num_parts;
  if (partition.by_position) {
    BisectByPosition(positioned, num_parts, positions, &next_part, &partition.core_part);
    AssignByMatches(adjacency, num_parts, &partition.core_part);
  } else {
    std::vector<int> all(num_images);
    for (int image = 0; image < num_images; ++image) all[image] = image;
    std::vector<char> member(num_images, 0);
    BisectByGraph(all, num_parts, adjacency, &member, &next_part, &partition.core_part);
  }
  for (int part = 0; part < num_parts; ++part) {
    const int core_size = static_cast<int>(std::count(partition.core_part.begin(), partition.core_part.end(), part));
    const int target = num_parts == 1 ? 0
                                      : std::max(options.min_overlap_images,
                                                 static_cast<int>(std::ceil(options.overlap_share * core_size)));
    partition.parts.push_back(
        GrowPart(adjacency, partition.core_part, num_parts, part, target, options.min_overlap_per_neighbour));
  }
  return partition;
}

}  // namespace proj
