#include "sfm/scene/track_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "core/check.h"

namespace proj {
namespace {

// A keypoint's place: its image in the high 32 bits, its group of co-located keypoints (the
// group's lowest keypoint index) in the low ones.
constexpr uint64_t kImageMask = ~uint64_t{0} << 32;
uint64_t Place(int image, int group) { return (static_cast<uint64_t>(image) << 32) | static_cast<uint32_t>(group); }

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

// Union-find over keypoints whose sets know their images and, per image, the position they
// hold there (a group of co-located keypoints), so that a union joining two positions of one
// image is refused before it is made. Sets of one keypoint keep no list (their image and
// group are place_of_); larger ones a sorted list of (image, group), merged small into large.
class ConsistentUnionFind {
 public:
  explicit ConsistentUnionFind(std::vector<uint64_t> place_of)
      : parent_(place_of.size()), place_of_(std::move(place_of)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  size_t Find(size_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // Joins the sets of a and b unless they hold different positions of one image; false if
  // refused.
  bool Union(size_t a, size_t b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return true;
    std::vector<uint64_t> places_a = TakePlaces(a);
    std::vector<uint64_t> places_b = TakePlaces(b);
    if (places_a.size() < places_b.size()) {
      std::swap(a, b);
      std::swap(places_a, places_b);
    }
    const bool conflict = std::any_of(places_b.begin(), places_b.end(), [&](uint64_t place) {
      const auto it = std::lower_bound(places_a.begin(), places_a.end(), place & kImageMask);
      return it != places_a.end() && (*it & kImageMask) == (place & kImageMask) && *it != place;
    });
    if (conflict) {
      if (places_a.size() > 1) places_[a] = std::move(places_a);
      if (places_b.size() > 1) places_[b] = std::move(places_b);
      return false;
    }
    std::vector<uint64_t> merged;
    merged.reserve(places_a.size() + places_b.size());
    std::set_union(places_a.begin(), places_a.end(), places_b.begin(), places_b.end(), std::back_inserter(merged));
    parent_[b] = a;
    places_[a] = std::move(merged);
    return true;
  }

 private:
  std::vector<uint64_t> TakePlaces(size_t root) {
    const auto it = places_.find(root);
    if (it == places_.end()) return {place_of_[root]};
    std::vector<uint64_t> places = std::move(it->second);
    places_.erase(it);
    return places;
  }

  std::vector<size_t> parent_;
  std::vector<uint64_t> place_of_;                            // by keypoint
  std::unordered_map<size_t, std::vector<uint64_t>> places_;  // by root of a set of >= 2
};

// For each chain (a component of the union of every match, by root), the most positions it
// holds in one image: the fewest consistent tracks it splits into.
std::unordered_map<size_t, int> TracksNeededPerChain(const std::vector<uint64_t>& place_of,
                                                     const std::vector<char>& matched, UnionFind* chains) {
  std::vector<std::pair<size_t, uint64_t>> chain_places;
  for (size_t flat = 0; flat < matched.size(); ++flat) {
    if (matched[flat]) chain_places.emplace_back(chains->Find(flat), place_of[flat]);
  }
  std::sort(chain_places.begin(), chain_places.end());
  chain_places.erase(std::unique(chain_places.begin(), chain_places.end()), chain_places.end());
  std::unordered_map<size_t, int> needed;
  for (size_t i = 0, end; i < chain_places.size(); i = end) {
    const auto same_image = [&](const std::pair<size_t, uint64_t>& other) {
      return other.first == chain_places[i].first &&
             (other.second & kImageMask) == (chain_places[i].second & kImageMask);
    };
    for (end = i; end < chain_places.size() && same_image(chain_places[end]); ++end) {
    }
    int& most = needed[chain_places[i].first];
    most = std::max(most, static_cast<int>(end - i));
  }
  return needed;
}

}  // namespace

void TrackBuilderOptions::Check() const {
  PROJ_REQUIRE(colocated_max_px >= 0, "TrackBuilderOptions.colocated_max_px must be >= 0");
  PROJ_REQUIRE(contest_sigma >= 0, "TrackBuilderOptions.contest_sigma must be >= 0");
  PROJ_REQUIRE(split_min_tracks >= 2, "TrackBuilderOptions.split_min_tracks must be >= 2");
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
  // Flat index of every keypoint: offset[image] + keypoint.
  std::vector<size_t> offset(num_images + 1, 0);
  for (size_t i = 0; i < num_images; ++i) offset[i + 1] = offset[i] + scene.images[i].keypoints.size();
  std::vector<uint64_t> place_of(offset.back());
  for (size_t i = 0; i < num_images; ++i) {
    const std::vector<int> group = ColocatedRepresentatives(scene.images[i].keypoints, options.colocated_max_px);
    for (size_t k = 0; k < group.size(); ++k) place_of[offset[i] + k] = Place(static_cast<int>(i), group[k]);
  }
  ConsistentUnionFind sets(place_of);
  UnionFind chains(offset.back());  // every match joined: the chains kept or dropped whole
  std::vector<char> matched(offset.back(), 0);
  // Per keypoint: matches joined at it (counted at one end) and refused at it (both ends).
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
      PROJ_CHECK(match.index1 >= 0 && static_cast<size_t>(match.index1) < offset[image1 + 1] - offset[image1] &&
                     match.index2 >= 0 && static_cast<size_t>(match.index2) < offset[image2 + 1] - offset[image2],
                 "match index out of range");
      const size_t a = offset[image1] + match.index1;
      const size_t b = offset[image2] + match.index2;
      matched[a] = matched[b] = 1;
      chains.Union(a, b);
      if (sets.Union(a, b)) {
        ++num_joined[a];
      } else {
        ++result.num_refused_matches;
        ++num_refused[a];
        ++num_refused[b];
      }
    }
  }
  const std::unordered_map<size_t, int> tracks_needed = TracksNeededPerChain(place_of, matched, &chains);

  // Keypoints by set, in image then keypoint order.
  std::unordered_map<size_t, int> component_of_root;
  std::vector<std::vector<TrackElement>> components;
  for (size_t image = 0; image < num_images; ++image) {
    for (size_t k = 0; k < offset[image + 1] - offset[image]; ++k) {
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
    result.track_of[image].assign(offset[image + 1] - offset[image], kInvalidId);
  }
  // Refused matches touch two keypoints each.
  const size_t total_joined = std::accumulate(num_joined.begin(), num_joined.end(), size_t{0});
  const double refused_per_joined = total_joined > 0 ? 2.0 * result.num_refused_matches / total_joined : 0.0;
  std::unordered_set<size_t> dropped_chains;
  for (const auto& component : components) {
    // One element per image: the lowest of its co-located keypoints stands for the others.
    std::vector<TrackElement> track;
    for (const auto& element : component) {
      if (track.empty() || track.back().image_id != element.image_id) track.push_back(element);
    }
    if (track.size() < 2) continue;  // every match of this position was refused
    const size_t chain = chains.Find(offset[track[0].image_id] + track[0].keypoint_index);
    const int needed = tracks_needed.at(chain);
    if (needed > 1 && needed < options.split_min_tracks) {
      dropped_chains.insert(chain);
      continue;
    }
    int joined = 0;
    int refused = 0;
    for (const auto& element : component) {
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
    result.num_features_in_tracks += static_cast<int>(component.size());
    result.num_colocated_keypoints += static_cast<int>(component.size() - track.size());
    result.tracks.push_back(std::move(track));
  }
  result.num_dropped_chains = static_cast<int>(dropped_chains.size());
  return result;
}

}  // namespace proj
