#include "sfm/scene/track_builder.h"

#include <numeric>
#include <unordered_map>

#include "core/check.h"

namespace proj {
namespace {

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

}  // namespace

TrackSet BuildTracks(const std::vector<int>& num_keypoints,
                     const std::vector<PairMatches>& verified_matches) {
  // Flat index of every observation: offset[image] + keypoint.
  std::vector<size_t> offset(num_keypoints.size() + 1, 0);
  for (size_t i = 0; i < num_keypoints.size(); ++i) offset[i + 1] = offset[i] + num_keypoints[i];
  UnionFind sets(offset.back());
  std::vector<char> matched(offset.back(), 0);
  for (const auto& pair : verified_matches) {
    for (const auto& match : pair.matches) {
      PROJ_CHECK(match.index1 < num_keypoints[pair.pair.image1] &&
                     match.index2 < num_keypoints[pair.pair.image2],
                 "match index out of range");
      const size_t a = offset[pair.pair.image1] + match.index1;
      const size_t b = offset[pair.pair.image2] + match.index2;
      sets.Union(a, b);
      matched[a] = matched[b] = 1;
    }
  }

  TrackSet result;
  std::unordered_map<size_t, int> track_of_root;
  std::vector<std::vector<TrackElement>> candidates;
  for (size_t image = 0; image < num_keypoints.size(); ++image) {
    for (int k = 0; k < num_keypoints[image]; ++k) {
      const size_t flat = offset[image] + k;
      if (!matched[flat]) continue;
      auto [it, inserted] = track_of_root.emplace(sets.Find(flat), static_cast<int>(candidates.size()));
      if (inserted) candidates.emplace_back();
      candidates[it->second].push_back({static_cast<int>(image), k});
    }
  }

  result.track_of.resize(num_keypoints.size());
  for (size_t image = 0; image < num_keypoints.size(); ++image) {
    result.track_of[image].assign(num_keypoints[image], kInvalidId);
  }
  for (auto& track : candidates) {
    // Elements are sorted by image (built in image order): duplicates are adjacent.
    bool consistent = track.size() >= 2;
    for (size_t i = 1; i < track.size() && consistent; ++i) {
      consistent = track[i].image_id != track[i - 1].image_id;
    }
    if (!consistent) {
      result.num_dropped_inconsistent += track.size() >= 2 ? 1 : 0;
      continue;
    }
    const int id = static_cast<int>(result.tracks.size());
    for (const auto& element : track) result.track_of[element.image_id][element.keypoint_index] = id;
    result.tracks.push_back(std::move(track));
  }
  return result;
}

}  // namespace proj
