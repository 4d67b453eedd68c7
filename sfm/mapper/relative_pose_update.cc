#include "sfm/mapper/relative_pose_update.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/check.h"
#include "core/parallel_for.h"
#include "geometry/ransac/estimate_two_view.h"
#include "geometry/solvers/essential_decomposition.h"

namespace proj {

void RelativePoseUpdateOptions::Check() const {
  PROJ_REQUIRE(max_error_px > 0, "relative pose update max_error_px must be > 0");
  PROJ_REQUIRE(min_focal_change >= 0, "relative pose update min_focal_change must be >= 0");
  PROJ_REQUIRE(num_threads >= 0, "relative pose update num_threads must be >= 0");
  PROJ_REQUIRE(max_pairs >= 0, "relative pose update max_pairs must be >= 0");
}

namespace {

bool FocalChanged(const Camera& before, const Camera& after, double min_change) {
  return std::abs(after.MeanFocal() / before.MeanFocal() - 1) > min_change;
}

// The pair's pose from its inlier matches under the scene's cameras; false if none.
bool EstimatePose(const RelativePoseUpdateOptions& options, const Scene& scene, size_t index,
                  VerifiedPair* pair) {
  const SceneImage& image1 = scene.images[pair->pair.image1];
  const SceneImage& image2 = scene.images[pair->pair.image2];
  const Camera& camera1 = scene.cameras[image1.camera_id];
  const Camera& camera2 = scene.cameras[image2.camera_id];
  std::vector<Eigen::Vector2d> normalized1, normalized2;
  normalized1.reserve(pair->geometry.inlier_matches.size());
  normalized2.reserve(pair->geometry.inlier_matches.size());
  for (const FeatureMatch& match : pair->geometry.inlier_matches) {
    normalized1.push_back(camera1.PixelToNormalized(image1.keypoints[match.index1]));
    normalized2.push_back(camera2.PixelToNormalized(image2.keypoints[match.index2]));
  }
  RansacOptions ransac;
  ransac.max_error = options.max_error_px / std::sqrt(camera1.MeanFocal() * camera2.MeanFocal());
  // The matches are verification's inliers: the adaptive count stops early; the floor only
  // guards against a lucky first sample (as in verification).
  ransac.min_iterations = 30;
  ransac.seed = options.seed + static_cast<uint64_t>(index);
  const auto report = EstimateEssentialMatrix(ransac, normalized1, normalized2);
  if (!report.success) return false;
  Rigid3d pose;
  if (RecoverPoseFromEssential(report.model, normalized1, normalized2, &report.inlier_mask, &pose) == 0) {
    return false;
  }
  pair->geometry.E = report.model;
  pair->geometry.cam2_from_cam1 = pose;
  return true;
}

}  // namespace

int UpdateRelativePoses(const RelativePoseUpdateOptions& options,
                        const std::vector<Camera>& previous_cameras, const Scene& scene,
                        std::vector<VerifiedPair>* pairs) {
  options.Check();
  PROJ_CHECK(previous_cameras.size() == scene.cameras.size(), "cameras and scene disagree");
  std::vector<char> changed(scene.cameras.size(), 0);
  bool any = false;
  for (size_t c = 0; c < scene.cameras.size(); ++c) {
    changed[c] = FocalChanged(previous_cameras[c], scene.cameras[c], options.min_focal_change);
    any |= changed[c] != 0;
  }
  if (!any) return 0;
  std::vector<int> eligible;
  for (int index = 0; index < static_cast<int>(pairs->size()); ++index) {
    const VerifiedPair& pair = (*pairs)[index];
    const TwoViewConfiguration configuration = pair.geometry.configuration;
    if (configuration != TwoViewConfiguration::kCalibrated &&
        configuration != TwoViewConfiguration::kUncalibrated) {
      continue;
    }
    if (changed[scene.images[pair.pair.image1].camera_id] ||
        changed[scene.images[pair.pair.image2].camera_id]) {
      eligible.push_back(index);
    }
  }
  if (options.max_pairs > 0 && static_cast<int>(eligible.size()) > options.max_pairs) {
    auto more_inliers = [&](int a, int b) {
      const size_t inliers_a = (*pairs)[a].geometry.inlier_matches.size();
      const size_t inliers_b = (*pairs)[b].geometry.inlier_matches.size();
      return inliers_a != inliers_b ? inliers_a > inliers_b : a < b;
    };
    std::nth_element(eligible.begin(), eligible.begin() + options.max_pairs, eligible.end(), more_inliers);
    for (size_t k = options.max_pairs; k < eligible.size(); ++k) {
      (*pairs)[eligible[k]].geometry.has_relative_pose = false;
    }
    eligible.resize(options.max_pairs);
  }
  std::atomic<int> count{0};
  ParallelFor(0, static_cast<int>(eligible.size()), options.num_threads, [&](int k, int) {
    const int index = eligible[k];
    VerifiedPair& pair = (*pairs)[index];
    pair.geometry.has_relative_pose = EstimatePose(options, scene, static_cast<size_t>(index), &pair);
    ++count;
  });
  return count;
}

}  // namespace proj
