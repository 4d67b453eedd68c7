#include "sfm/scene/track_builder.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "core/check.h"

namespace proj {
namespace {

// Plain union-find; the root of a set is its lowest element.
class UnionFind {
 public:
  explicit UnionFind(size_t size) : parent_(size) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t Find(size_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];  // path halving
      x = parent_[x];
    }
    return x;
  }
  void Union(size_t a, size_t b) {
    a = Find(a);
    b = Find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<size_t> parent_;
};

// Union-find over observations whose sets know their images, so that a union joining two
// keypoints of one image is refused before it is made. Sets of one observation keep no list
// (their image is image_of_); larger ones a sorted list of their images, merged small into
// large.
class ConsistentUnionFind {
 public:
  explicit ConsistentUnionFind(std::vector<int> image_of)
      : parent_(image_of.size()), image_of_(std::move(image_of)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  size_t Find(size_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // Joins the sets of a and b unless they hold a keypoint of the same image; false if refused.
  bool Union(size_t a, size_t b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return true;
    std::vector<int> images_a = TakeImages(a);
    std::vector<int> images_b = TakeImages(b);
    if (images_a.size() < images_b.size()) {
      std::swap(a, b);
      std::swap(images_a, images_b);
    }
    const bool shared = std::any_of(images_b.begin(), images_b.end(), [&](int image) {
      return std::binary_search(images_a.begin(), images_a.end(), image);
    });
    if (shared) {
      if (images_a.size() > 1) images_[a] = std::move(images_a);
      if (images_b.size() > 1) images_[b] = std::move(images_b);
      return false;
    }
    std::vector<int> merged(images_a.size() + images_b.size());
    std::merge(images_a.begin(), images_a.end(), images_b.begin(), images_b.end(), merged.begin());
    parent_[b] = a;
    images_[a] = std::move(merged);
    return true;
  }

 private:
  std::vector<int> TakeImages(size_t root) {
    const auto it = images_.find(root);
    if (it == images_.end()) return {image_of_[root]};
    std::vector<int> images = std::move(it->second);
    images_.erase(it);
    return images;
  }

  std::vector<size_t> parent_;
  std::vector<int> image_of_;                             // by observation
  std::unordered_map<size_t, std::vector<int>> images_;  // by root of a set of >= 2
};

}  // namespace

void TrackBuilderOptions::Check() const {
  PROJ_REQUIRE(colocated_max_px >= 0, "TrackBuilderOptions.colocated_max_px must be >= 0");
  PROJ_REQUIRE(contest_sigma >= 0, "TrackBuilderOptions.contest_sigma must be >= 0");
}

double TrackSet::KeptShare() const {
  return num_matched_features > 0 ? static_cast<double>(num_features_in_tracks) / num_matched_features : 1.0;
}

std::vector<int> ColocatedRepresentatives(const std::vector<Eigen::Vector2d>& keypoints, double max_px) {
  std::vector<int> order(keypoints.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (keypoints[a].x() != keypoints[b].x()) return keypoints[a].x() < keypoints[b].x();
    if (keypoints[a].y() != keypoints[b].y()) return keypoints[a].y() < keypoints[b].y();
    return a < b;
  });
  UnionFind groups(keypoints.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const Eigen::Vector2d& point = keypoints[order[i]];
    for (size_t j = i; j-- > 0 && point.x() - keypoints[order[j]].x() <= max_px;) {
      if ((point - keypoints[order[j]]).squaredNorm() <= max_px * max_px) groups.Union(order[i], order[j]);
    }
  }
  std::vector<int> representative(keypoints.size());
  for (size_t k = 0; k < keypoints.size(); ++k) representative[k] = static_cast<int>(groups.Find(k));
  return representative;
}

TrackSet BuildTracks(const Scene& scene, const std::vector<PairMatches>& verified_matches,
                     const TrackBuilderOptions& options) {
  options.Check();
  TrackSet result;
  const size_t num_images = scene.images.size();
  // Flat index of every observation: offset[image] + keypoint.
  std::vector<size_t> offset(num_images + 1, 0);
  std::vector<std::vector<int>> representative(num_images);
  for (size_t i = 0; i < num_images; ++i) {
    const auto& keypoints = scene.images[i].keypoints;
    offset[i + 1] = offset[i] + keypoints.size();
    representative[i] = ColocatedRepresentatives(keypoints, options.colocated_max_px);
    for (size_t k = 0; k < keypoints.size(); ++k) {
      result.num_colocated_keypoints += representative[i][k] != static_cast<int>(k) ? 1 : 0;
    }
  }
  std::vector<int> image_of(offset.back());
  for (size_t i = 0; i < num_images; ++i) {
    std::fill(image_of.begin() + offset[i], image_of.begin() + offset[i + 1], static_cast<int>(i));
  }
  ConsistentUnionFind sets(std::move(image_of));
  std::vector<char> matched(offset.back(), 0);
  // Per observation: matches joined at it (counted at one end) and refused at it (both ends).
  std::vector<int> num_joined(offset.back(), 0);
  std::vector<int> num_refused(offset.back(), 0);

  // Strongest evidence first: a pair's many inliers outvote the odd wrong match of a weak pair.
  std::vector<size_t> order(verified_matches.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return verified_matches[a].matches.size() > verified_matches[b].matches.size();
  });
  for (size_t p : order) {
    const PairMatches& pair = verified_matches[p];
    const int image1 = pair.pair.image1;
    const int image2 = pair.pair.image2;
    PROJ_CHECK(image1 >= 0 && image2 >= 0 && static_cast<size_t>(std::max(image1, image2)) < num_images &&
                   image1 != image2,
               "pair images out of range");
    for (const auto& match : pair.matches) {
      PROJ_CHECK(match.index1 >= 0 && match.index1 < static_cast<int>(representative[image1].size()) &&
                     match.index2 >= 0 && match.index2 < static_cast<int>(representative[image2].size()),
                 "match index out of range");
      const size_t a = offset[image1] + representative[image1][match.index1];
      const size_t b = offset[image2] + representative[image2][match.index2];
      matched[a] = matched[b] = 1;
      if (sets.Union(a, b)) {
        ++num_joined[a];
      } else {
        ++result.num_refused_matches;
        ++num_refused[a];
        ++num_refused[b];
      }
    }
  }

  std::unordered_map<size_t, int> component_of_root;
  std::vector<std::vector<TrackElement>> components;
  for (size_t image = 0; image < num_images; ++image) {
    for (size_t k = 0; k < representative[image].size(); ++k) {
      const size_t flat = offset[image] + k;
      if (!matched[flat]) continue;
      ++result.num_matched_features;
      auto [it, inserted] = component_of_root.emplace(sets.Find(flat), static_cast<int>(components.size()));
      if (inserted) components.emplace_back();
      components[it->second].push_back({static_cast<int>(image), static_cast<int>(k)});
    }
  }

  result.track_of.resize(num_images);
  for (size_t image = 0; image < num_images; ++image) {
    result.track_of[image].assign(representative[image].size(), kInvalidId);
  }
  // Refused matches touch two observations each.
  const size_t total_joined = std::accumulate(num_joined.begin(), num_joined.end(), size_t{0});
  const double refused_per_joined = total_joined > 0 ? 2.0 * result.num_refused_matches / total_joined : 0.0;
  for (auto& track : components) {
    if (track.size() < 2) continue;  // every match of this observation was refused
    int joined = 0;
    int refused = 0;
    for (const auto& element : track) {
      const size_t flat = offset[element.image_id] + element.keypoint_index;
      joined += num_joined[flat];
      refused += num_refused[flat];
    }
    const double expected = refused_per_joined * joined;
    if (refused > expected + options.contest_sigma * std::sqrt(expected)) {
      ++result.num_contested_tracks;
      continue;
    }
    const int id = static_cast<int>(result.tracks.size());
    for (const auto& element : track) result.track_of[element.image_id][element.keypoint_index] = id;
    result.num_features_in_tracks += static_cast<int>(track.size());
    result.tracks.push_back(std::move(track));
  }
  return result;
}

}  // namespace proj
