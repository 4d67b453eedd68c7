#include "sfm/mapper/initial_pair.h"

#include <algorithm>

namespace proj {

std::vector<const VerifiedPair*> InitialPairCandidates(const std::vector<VerifiedPair>& pairs,
                                                       int max_candidates) {
  std::vector<const VerifiedPair*> candidates;
  for (const auto& pair : pairs) {
    if (pair.geometry.configuration == TwoViewConfiguration::kPanoramic ||
        pair.geometry.configuration == TwoViewConfiguration::kDegenerate) {
      continue;
    }
    candidates.push_back(&pair);
  }
  auto is_planar = [](const VerifiedPair* p) {
    return p->geometry.configuration == TwoViewConfiguration::kPlanar;
  };
  std::stable_sort(candidates.begin(), candidates.end(), [&](const auto* a, const auto* b) {
    if (is_planar(a) != is_planar(b)) return !is_planar(a);
    return a->geometry.inlier_matches.size() > b->geometry.inlier_matches.size();
  });
  if (candidates.size() > static_cast<size_t>(max_candidates)) candidates.resize(max_candidates);
  return candidates;
}

RelativePoseResult InitialRelativePose(const VerifiedPair& pair,
                                       const std::vector<Eigen::Vector2d>& n1,
                                       const std::vector<Eigen::Vector2d>& n2, double max_error,
                                       uint64_t seed) {
  const TwoViewGeometry& geometry = pair.geometry;
  const bool usable = geometry.has_relative_pose && geometry.cam2_from_cam1.translation.norm() > 0 &&
                      (geometry.configuration == TwoViewConfiguration::kCalibrated ||
                       geometry.configuration == TwoViewConfiguration::kPlanar);
  if (!usable) return EstimateRelativePose(n1, n2, max_error, seed);
  RelativePoseResult relative;
  relative.success = true;
  relative.cam2_from_cam1 = geometry.cam2_from_cam1;
  relative.inlier_mask.assign(n1.size(), 1);
  relative.num_inliers = static_cast<int>(n1.size());
  return relative;
}

std::optional<double> MedianTriangulationAngleDeg(const RelativePoseResult& relative,
                                                  const std::vector<Eigen::Vector2d>& n1,
                                                  const std::vector<Eigen::Vector2d>& n2,
                                                  int min_num_points) {
  const std::vector<Rigid3d> poses = {Rigid3d(), relative.cam2_from_cam1};
  const Eigen::Vector3d c1 = poses[0].Center(), c2 = poses[1].Center();
  std::vector<double> angles;
  for (size_t i = 0; i < n1.size(); ++i) {
    if (!relative.inlier_mask[i]) continue;
    const auto point = TriangulateObservations(poses, {n1[i], n2[i]});
    if (!point || (poses[0] * *point).z() <= 0 || (poses[1] * *point).z() <= 0) continue;
    angles.push_back(TriangulationAngleDeg(c1, c2, *point));
  }
  if (static_cast<int>(angles.size()) < min_num_points || angles.empty()) return std::nullopt;
  std::nth_element(angles.begin(), angles.begin() + angles.size() / 2, angles.end());
  return angles[angles.size() / 2];
}

}  // namespace proj
