#include "sfm/mapper/initial_pair.h"

#include <algorithm>

namespace proj {
namespace {

double Median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

bool HasUsablePose(const TwoViewGeometry& geometry) {
  return geometry.has_relative_pose && geometry.cam2_from_cam1.translation.norm() > 0 &&
         (geometry.configuration == TwoViewConfiguration::kCalibrated ||
          geometry.configuration == TwoViewConfiguration::kPlanar);
}

}  // namespace

InitialPairScore ScoreInitialPair(const VerifiedPair& pair, const Scene& scene,
                                  double wanted_angle_deg, int max_samples) {
  InitialPairScore score;
  const TwoViewGeometry& geometry = pair.geometry;
  if (geometry.configuration == TwoViewConfiguration::kPanoramic ||
      geometry.configuration == TwoViewConfiguration::kDegenerate ||
      geometry.inlier_matches.empty()) {
    return score;
  }
  const int num_inliers = static_cast<int>(geometry.inlier_matches.size());
  if (!HasUsablePose(geometry)) {
    score.num_inliers = num_inliers;
    score.score = 0.5 * num_inliers;
    return score;
  }
  const SceneImage& image1 = scene.images[pair.pair.image1];
  const SceneImage& image2 = scene.images[pair.pair.image2];
  const Camera& camera1 = scene.cameras[image1.camera_id];
  const Camera& camera2 = scene.cameras[image2.camera_id];
  const int stride = std::max(1, num_inliers / std::max(1, max_samples));
  std::vector<Eigen::Vector2d> n1, n2;
  for (int i = 0; i < num_inliers; i += stride) {
    const FeatureMatch& m = geometry.inlier_matches[i];
    n1.push_back(camera1.PixelToNormalized(image1.keypoints[m.index1]));
    n2.push_back(camera2.PixelToNormalized(image2.keypoints[m.index2]));
  }
  RelativePoseResult relative;
  relative.success = true;
  relative.cam2_from_cam1 = geometry.cam2_from_cam1;
  relative.inlier_mask.assign(n1.size(), 1);
  const std::vector<double> angles = TriangulationAnglesDeg(relative, n1, n2);
  if (angles.empty()) return score;
  score.num_inliers = static_cast<int>(static_cast<double>(num_inliers) * angles.size() / n1.size());
  score.median_angle_deg = Median(angles);
  score.score = score.num_inliers * std::min(1.0, score.median_angle_deg / wanted_angle_deg);
  return score;
}

std::vector<const VerifiedPair*> InitialPairCandidates(const std::vector<VerifiedPair>& pairs,
                                                       const Scene& scene, double wanted_angle_deg,
                                                       int max_candidates) {
  struct Ranked {
    const VerifiedPair* pair;
    InitialPairScore score;
  };
  std::vector<Ranked> ranked;
  for (const auto& pair : pairs) {
    if (!scene.images[pair.pair.image1].keyframe || !scene.images[pair.pair.image2].keyframe) continue;
    const InitialPairScore score = ScoreInitialPair(pair, scene, wanted_angle_deg);
    if (score.score > 0) ranked.push_back({&pair, score});
  }
  auto is_planar = [](const Ranked& r) {
    return r.pair->geometry.configuration == TwoViewConfiguration::kPlanar;
  };
  std::stable_sort(ranked.begin(), ranked.end(), [&](const Ranked& a, const Ranked& b) {
    if (is_planar(a) != is_planar(b)) return !is_planar(a);
    if (a.score.score != b.score.score) return a.score.score > b.score.score;
    return a.pair->geometry.inlier_matches.size() > b.pair->geometry.inlier_matches.size();
  });
  if (ranked.size() > static_cast<size_t>(max_candidates)) ranked.resize(max_candidates);
  std::vector<const VerifiedPair*> candidates;
  for (const Ranked& r : ranked) candidates.push_back(r.pair);
  return candidates;
}

RelativePoseResult InitialRelativePose(const VerifiedPair& pair,
                                       const std::vector<Eigen::Vector2d>& n1,
                                       const std::vector<Eigen::Vector2d>& n2, double max_error,
                                       uint64_t seed) {
  const TwoViewGeometry& geometry = pair.geometry;
  if (!HasUsablePose(geometry)) return EstimateRelativePose(n1, n2, max_error, seed);
  RelativePoseResult relative;
  relative.success = true;
  relative.cam2_from_cam1 = geometry.cam2_from_cam1;
  relative.inlier_mask.assign(n1.size(), 1);
  relative.num_inliers = static_cast<int>(n1.size());
  return relative;
}

std::vector<double> TriangulationAnglesDeg(const RelativePoseResult& relative,
                                           const std::vector<Eigen::Vector2d>& n1,
                                           const std::vector<Eigen::Vector2d>& n2) {
  const std::vector<Rigid3d> poses = {Rigid3d(), relative.cam2_from_cam1};
  const Eigen::Vector3d c1 = poses[0].Center(), c2 = poses[1].Center();
  std::vector<double> angles;
  for (size_t i = 0; i < n1.size(); ++i) {
    if (!relative.inlier_mask[i]) continue;
    const auto point = TriangulateObservations(poses, {n1[i], n2[i]});
    if (!point || (poses[0] * *point).z() <= 0 || (poses[1] * *point).z() <= 0) continue;
    angles.push_back(TriangulationAngleDeg(c1, c2, *point));
  }
  return angles;
}

std::optional<double> MedianTriangulationAngleDeg(const RelativePoseResult& relative,
                                                  const std::vector<Eigen::Vector2d>& n1,
                                                  const std::vector<Eigen::Vector2d>& n2,
                                                  int min_num_points) {
  const std::vector<double> angles = TriangulationAnglesDeg(relative, n1, n2);
  if (static_cast<int>(angles.size()) < min_num_points || angles.empty()) return std::nullopt;
  return Median(angles);
}

}  // namespace proj
