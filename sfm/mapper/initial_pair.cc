#include "sfm/mapper/initial_pair.h"

#include <algorithm>
#include "core/statistics.h"

namespace proj {
namespace {

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
  score.median_angle_deg = UpperMedian(angles);
  score.score = score.num_inliers * std::min(1.0, score.median_angle_deg / wanted_angle_deg);
  return score;
}

namespace {

struct Ranked {
  const VerifiedPair* pair;
  size_t index;  // in the input, the last tie-break
  InitialPairScore score;
};

// The candidates' order within a group: best score first, then more inliers, then input order.
bool RanksBefore(const Ranked& a, const Ranked& b) {
  if (a.score.score != b.score.score) return a.score.score > b.score.score;
  const size_t inliers_a = a.pair->geometry.inlier_matches.size();
  const size_t inliers_b = b.pair->geometry.inlier_matches.size();
  if (inliers_a != inliers_b) return inliers_a > inliers_b;
  return a.index < b.index;
}

// The `count` best-ranked pairs of `order` (indices into `pairs` by decreasing inlier count),
// best first. A pair's score never exceeds its inlier count, so scoring stops at the first
// pair whose inlier count is below the worst score kept: no later pair can rank before it.
std::vector<Ranked> BestScored(const std::vector<VerifiedPair>& pairs, const std::vector<size_t>& order,
                               const Scene& scene, double wanted_angle_deg, size_t count,
                               int* num_scored) {
  std::vector<Ranked> kept;
  if (count == 0) return kept;
  for (size_t index : order) {
    const VerifiedPair& pair = pairs[index];
    const double bound = static_cast<double>(pair.geometry.inlier_matches.size());
    if (kept.size() == count && bound < kept.back().score.score) break;
    const Ranked ranked{&pair, index, ScoreInitialPair(pair, scene, wanted_angle_deg)};
    ++*num_scored;
    if (ranked.score.score <= 0) continue;
    if (kept.size() == count && !RanksBefore(ranked, kept.back())) continue;
    kept.insert(std::upper_bound(kept.begin(), kept.end(), ranked, RanksBefore), ranked);
    if (kept.size() > count) kept.pop_back();
  }
  return kept;
}

}  // namespace

std::vector<const VerifiedPair*> InitialPairCandidates(const std::vector<VerifiedPair>& pairs,
                                                       const Scene& scene, double wanted_angle_deg,
                                                       int max_candidates, int* num_scored,
                                                       bool keyframes_only,
                                                       const std::vector<char>* allowed_images,
                                                       int min_num_inliers) {
  int scored = 0;
  // General pairs, then planar ones; within each by decreasing inlier count (the bound).
  std::vector<size_t> general, planar;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const TwoViewGeometry& geometry = pairs[i].geometry;
    if (geometry.configuration == TwoViewConfiguration::kPanoramic ||
        geometry.configuration == TwoViewConfiguration::kDegenerate ||
        geometry.inlier_matches.empty() ||
        static_cast<int>(geometry.inlier_matches.size()) < min_num_inliers ||
        (keyframes_only && (!scene.images[pairs[i].pair.image1].keyframe ||
                            !scene.images[pairs[i].pair.image2].keyframe)) ||
        (allowed_images != nullptr && (!(*allowed_images)[pairs[i].pair.image1] ||
                                       !(*allowed_images)[pairs[i].pair.image2]))) {
      continue;
    }
    (geometry.configuration == TwoViewConfiguration::kPlanar ? planar : general).push_back(i);
  }
  auto by_inliers = [&](size_t a, size_t b) {
    const size_t inliers_a = pairs[a].geometry.inlier_matches.size();
    const size_t inliers_b = pairs[b].geometry.inlier_matches.size();
    return inliers_a != inliers_b ? inliers_a > inliers_b : a < b;
  };
  std::sort(general.begin(), general.end(), by_inliers);
  std::sort(planar.begin(), planar.end(), by_inliers);
  const size_t wanted = static_cast<size_t>(std::max(0, max_candidates));
  std::vector<Ranked> ranked = BestScored(pairs, general, scene, wanted_angle_deg, wanted, &scored);
  const std::vector<Ranked> planar_ranked =
      BestScored(pairs, planar, scene, wanted_angle_deg, wanted - ranked.size(), &scored);
  ranked.insert(ranked.end(), planar_ranked.begin(), planar_ranked.end());
  if (num_scored != nullptr) *num_scored = scored;
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
  return UpperMedian(angles);
}

}  // namespace proj
