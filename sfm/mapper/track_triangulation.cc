#include "sfm/mapper/track_triangulation.h"

#include <algorithm>
#include <random>
#include <utility>

#include "sfm/mapper/pose_estimation.h"
#include "sfm/mapper/scene_geometry.h"

namespace proj {
namespace {

// Two-view seeds tried at most per track: every pair up to 14 observations, a sample seeded by
// the track beyond (a track of 30 with a third of its observations wrong holds a right pair in
// each draw with probability 0.44, so one of 91 draws is right but for 1e-23).
constexpr int kMaxSeedPairs = 91;

// Each element's camera pose and normalized image point.
void ElementViews(const Scene& scene, const std::vector<TrackElement>& elements, std::vector<Rigid3d>* poses,
                  std::vector<Eigen::Vector2d>* normalized) {
  poses->reserve(elements.size());
  normalized->reserve(elements.size());
  for (const auto& e : elements) {
    const SceneImage& image = scene.images[e.image_id];
    poses->push_back(image.cam_from_world);
    normalized->push_back(scene.cameras[image.camera_id].PixelToNormalized(image.keypoints[e.keypoint_index]));
  }
}

std::optional<Eigen::Vector3d> TriangulateElements(const Scene& scene, const std::vector<TrackElement>& elements) {
  std::vector<Rigid3d> poses;
  std::vector<Eigen::Vector2d> normalized;
  ElementViews(scene, elements, &poses, &normalized);
  return TriangulateObservations(poses, normalized);
}

// Triangulated from all the elements, dropping the worst-reprojecting one until every error is
// <= max_error_px (at least two remain); no angle check.
std::optional<Point3D> TriangulateDroppingWorst(const Scene& scene, std::vector<TrackElement> elements,
                                                double max_error_px) {
  while (elements.size() >= 2) {
    const auto position = TriangulateElements(scene, elements);
    if (!position) return std::nullopt;
    size_t worst = 0;
    double worst_error = -1;
    for (size_t i = 0; i < elements.size(); ++i) {
      const double error = ReprojectionErrorPx(scene, elements[i].image_id, elements[i].keypoint_index, *position);
      if (error > worst_error) {
        worst_error = error;
        worst = i;
      }
    }
    if (worst_error <= max_error_px) {
      Point3D point;
      point.position = *position;
      point.track = std::move(elements);
      return point;
    }
    elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(worst));
  }
  return std::nullopt;
}

std::vector<std::pair<int, int>> SeedPairs(int n, const TrackElement& first) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
  }
  if (static_cast<int>(pairs.size()) > kMaxSeedPairs) {
    // Seeded by the track: a track is triangulated the same way whenever it is.
    std::mt19937 random(static_cast<unsigned>(first.image_id) * 2654435761u +
                        static_cast<unsigned>(first.keypoint_index));
    std::shuffle(pairs.begin(), pairs.end(), random);
    pairs.resize(kMaxSeedPairs);
  }
  return pairs;
}

// The elements that agree with the best two-view seed: for each seed pair seen at least
// min_angle_deg apart, its point and the elements reprojecting within max_error_px of it; the
// largest such set (the lower error sum on a tie). Empty when no seed gathers two. Each
// element's pose, ray and centre are taken once, not once per seed pair.
std::vector<TrackElement> LargestAgreeingSubset(const Scene& scene, const std::vector<TrackElement>& elements,
                                                double max_error_px, double min_angle_deg) {
  const int n = static_cast<int>(elements.size());
  std::vector<Rigid3d> poses;
  std::vector<Eigen::Vector2d> normalized;
  ElementViews(scene, elements, &poses, &normalized);
  std::vector<Eigen::Vector3d> centres;
  for (const Rigid3d& pose : poses) centres.push_back(pose.Center());
  std::vector<Rigid3d> seed_poses(2);
  std::vector<Eigen::Vector2d> seed_rays(2);
  std::vector<int> best;
  double best_error_sum = 0;
  std::vector<int> agreeing;
  for (const auto& [a, b] : SeedPairs(n, elements.front())) {
    seed_poses[0] = poses[a];
    seed_poses[1] = poses[b];
    seed_rays[0] = normalized[a];
    seed_rays[1] = normalized[b];
    const auto position = TriangulateObservations(seed_poses, seed_rays);
    if (!position || TriangulationAngleDeg(centres[a], centres[b], *position) < min_angle_deg) continue;
    agreeing.clear();
    double error_sum = 0;
    for (int i = 0; i < n; ++i) {
      const double error = ReprojectionErrorPx(scene, elements[i].image_id, elements[i].keypoint_index, *position);
      if (error <= max_error_px) {
        agreeing.push_back(i);
        error_sum += error;
      }
    }
    if (agreeing.size() > best.size() || (agreeing.size() == best.size() && error_sum < best_error_sum)) {
      best = agreeing;
      best_error_sum = error_sum;
      if (static_cast<int>(best.size()) == n) break;
    }
  }
  std::vector<TrackElement> subset;
  if (best.size() < 2) return subset;
  for (int i : best) subset.push_back(elements[i]);
  return subset;
}

}  // namespace

std::optional<Point3D> TriangulateTrack(const Scene& scene, const std::vector<TrackElement>& track,
                                        double max_error_px, double min_angle_deg, TrackTriangulation rule) {
  std::vector<TrackElement> elements;
  for (const auto& e : track) {
    if (scene.images[e.image_id].registered) elements.push_back(e);
  }
  if (elements.size() < 2) return std::nullopt;
  std::optional<Point3D> point = TriangulateDroppingWorst(scene, elements, max_error_px);
  if (rule == TrackTriangulation::kLargestAgreeingSubset && (!point || point->track.size() < elements.size())) {
    const std::vector<TrackElement> subset = LargestAgreeingSubset(scene, elements, max_error_px, min_angle_deg);
    if (subset.size() >= 2 && (!point || subset.size() > point->track.size())) {
      std::optional<Point3D> agreeing = TriangulateDroppingWorst(scene, subset, max_error_px);
      if (agreeing && (!point || agreeing->track.size() > point->track.size())) point = std::move(agreeing);
    }
  }
  if (!point || MaxTriangulationAngleDeg(scene, *point) < min_angle_deg) return std::nullopt;
  return point;
}

int ExtendPoint(const std::vector<TrackElement>& track, int point_id, double max_error_px, Scene* scene) {
  const Eigen::Vector3d position = scene->points.at(point_id).position;
  int added = 0;
  for (const auto& e : track) {
    const SceneImage& image = scene->images[e.image_id];
    if (!image.registered || image.point3d_ids[e.keypoint_index] != kInvalidId) continue;
    if (ReprojectionErrorPx(*scene, e.image_id, e.keypoint_index, position) <= max_error_px) {
      scene->AddObservation(point_id, e);
      ++added;
    }
  }
  return added;
}

}  // namespace proj
