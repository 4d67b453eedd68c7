#include "sfm/global/focal_bootstrap.h"

#include <algorithm>
#include <utility>

#include "core/check.h"
#include "core/logging.h"

namespace proj {

void FocalBootstrapOptions::Check() const {
  PROJ_REQUIRE(max_images >= 3, "focal bootstrap max_images must be >= 3");
  PROJ_REQUIRE(min_registered >= 3 && min_registered <= max_images,
               "focal bootstrap min_registered must be in [3, max_images]");
}

namespace {

// The image of `camera_id` with the most pairs of min_pair_inliers, then its partners with the
// most inliers: increasing image ids, at most max_images; empty when the camera has no pair.
std::vector<int> BestLinkedImages(const Scene& scene, const std::vector<VerifiedPair>& pairs, int camera_id,
                                  int min_pair_inliers, int max_images) {
  std::vector<int> degree(scene.images.size(), 0);
  for (const VerifiedPair& pair : pairs) {
    if (static_cast<int>(pair.geometry.inlier_matches.size()) < min_pair_inliers) continue;
    ++degree[pair.pair.image1];
    ++degree[pair.pair.image2];
  }
  int seed = -1;
  for (size_t i = 0; i < scene.images.size(); ++i) {
    if (scene.images[i].camera_id != camera_id || degree[i] == 0) continue;
    if (seed < 0 || degree[i] > degree[seed]) seed = static_cast<int>(i);
  }
  if (seed < 0) return {};
  std::vector<std::pair<int, int>> partners;  // inliers, image
  for (const VerifiedPair& pair : pairs) {
    const int inliers = static_cast<int>(pair.geometry.inlier_matches.size());
    if (inliers < min_pair_inliers) continue;
    if (pair.pair.image1 == seed) partners.emplace_back(inliers, pair.pair.image2);
    if (pair.pair.image2 == seed) partners.emplace_back(inliers, pair.pair.image1);
  }
  std::stable_sort(partners.begin(), partners.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<int> images{seed};
  for (const auto& [inliers, image] : partners) {
    if (static_cast<int>(images.size()) >= max_images) break;
    images.push_back(image);
  }
  std::sort(images.begin(), images.end());
  return images;
}

}  // namespace

std::vector<int> BootstrapFocalLengths(const FocalBootstrapOptions& options, const IncrementalMapperOptions& mapper,
                                       int min_pair_inliers, const std::vector<VerifiedPair>& pairs,
                                       const std::vector<CameraFocalCalibration>& calibration, Scene* scene) {
  std::vector<int> changed;
  if (!options.enabled) return changed;
  options.Check();
  for (const CameraFocalCalibration& camera : calibration) {
    if (camera.from_exif || camera.calibrated) continue;
    const std::vector<int> images =
        BestLinkedImages(*scene, pairs, camera.camera_id, min_pair_inliers, options.max_images);
    if (static_cast<int>(images.size()) < options.min_registered) continue;
    SubViewGraph sub = ExtractSubViewGraph(*scene, pairs, images);
    const TrackSet tracks = BuildViewGraphTracks(sub.scene, sub.pairs);
    MapperSummary summary;
    {
      const ScopedLogPrefix prefix("focal length model: ");
      summary = RunIncrementalMapper(mapper, tracks, sub.pairs, &sub.scene);
    }
    if (!summary.success || summary.num_registered < options.min_registered) {
      PROJ_LOG(kInfo, "focal length of camera " << camera.camera_id << ": a model of its " << images.size()
                                                << " best-linked images registered too few; the prior stays");
      continue;
    }
    Camera& target = scene->cameras[camera.camera_id];
    const Camera& fitted = sub.scene.cameras[camera.camera_id];
    const double before = target.params[target.FocalIndices().front()];
    for (int index : target.FocalIndices()) target.params[index] = fitted.params[index];
    PROJ_LOG(kInfo, "focal length of camera " << camera.camera_id << " from a model of " << summary.num_registered
                                              << " of its best-linked images (the view graph gave no minimum): "
                                              << before << " -> " << target.params[target.FocalIndices().front()]
                                              << " px");
    changed.push_back(camera.camera_id);
  }
  return changed;
}

}  // namespace proj
