#include "tests/sfm/mapper/mapper_test_scene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/check.h"

namespace proj::testing {

MapperTestScene MakeMapperTestScene(const SyntheticSceneOptions& options) {
  return MakeMapperTestScene(MakeSyntheticScene(options));
}

MapperTestScene MakeMapperTestScene(const Scene& true_scene) {
  MapperTestScene out;
  out.truth = true_scene;
  const Scene& truth = out.truth;
  out.input = truth;
  out.input.points.clear();
  out.input.next_point_id = 0;
  for (auto& image : out.input.images) {
    image.registered = false;
    image.cam_from_world = Rigid3d();
    std::fill(image.point3d_ids.begin(), image.point3d_ids.end(), kInvalidId);
  }
  out.tracks.track_of.resize(truth.images.size());
  for (size_t i = 0; i < truth.images.size(); ++i) {
    out.tracks.track_of[i].assign(truth.images[i].keypoints.size(), kInvalidId);
  }
  std::map<std::pair<int, int>, std::vector<FeatureMatch>> matches;
  for (const auto& [id, point] : truth.points) {
    const int track_id = static_cast<int>(out.tracks.tracks.size());
    out.tracks.tracks.push_back(point.track);
    for (const auto& e : point.track) out.tracks.track_of[e.image_id][e.keypoint_index] = track_id;
    for (size_t a = 0; a < point.track.size(); ++a) {
      for (size_t b = a + 1; b < point.track.size(); ++b) {
        TrackElement e1 = point.track[a], e2 = point.track[b];
        if (e1.image_id > e2.image_id) std::swap(e1, e2);
        matches[{e1.image_id, e2.image_id}].push_back({e1.keypoint_index, e2.keypoint_index});
      }
    }
  }
  for (auto& [ids, pair_matches] : matches) {
    VerifiedPair pair;
    pair.pair = {ids.first, ids.second};
    pair.geometry.configuration = TwoViewConfiguration::kCalibrated;
    pair.geometry.inlier_matches = std::move(pair_matches);
    pair.geometry.has_relative_pose = true;
    Rigid3d relative = truth.images[ids.second].cam_from_world *
                       truth.images[ids.first].cam_from_world.Inverse();
    relative.translation.normalize();
    pair.geometry.cam2_from_cam1 = relative;
    out.pairs.push_back(std::move(pair));
  }
  return out;
}

const VerifiedPair& FindPair(const MapperTestScene& scene, int image1, int image2) {
  for (const auto& pair : scene.pairs) {
    if (pair.pair.image1 == image1 && pair.pair.image2 == image2) return pair;
  }
  PROJ_CHECK(false, "no pair " << image1 << ", " << image2);
  return scene.pairs.front();
}

std::vector<int> RecountTracksWithPoint(const Scene& scene, const TrackSet& tracks) {
  std::set<int> with_point;
  for (const auto& [id, point] : scene.points) {
    const TrackElement& e = point.track.front();
    with_point.insert(tracks.track_of[e.image_id][e.keypoint_index]);
  }
  std::vector<int> counts(scene.images.size(), 0);
  for (size_t i = 0; i < scene.images.size(); ++i) {
    for (int track : tracks.track_of[i]) counts[i] += with_point.count(track) ? 1 : 0;
  }
  return counts;
}

double MaxRelativeRotationErrorDeg(const Scene& truth, const Scene& estimate) {
  double worst = 0;
  for (size_t i = 0; i < truth.images.size(); ++i) {
    for (size_t j = i + 1; j < truth.images.size(); ++j) {
      if (!estimate.images[i].registered || !estimate.images[j].registered) continue;
      const Eigen::Quaterniond true_relative = truth.images[i].cam_from_world.rotation *
                                               truth.images[j].cam_from_world.rotation.conjugate();
      const Eigen::Quaterniond relative = estimate.images[i].cam_from_world.rotation *
                                          estimate.images[j].cam_from_world.rotation.conjugate();
      worst = std::max(worst, true_relative.angularDistance(relative) * 180.0 / M_PI);
    }
  }
  return worst;
}

SyntheticSceneOptions SmallMapperScene() {
  SyntheticSceneOptions options;
  options.num_images = 12;
  options.num_points = 500;
  options.camera_models = {CameraModelId::kSimpleRadial};
  options.camera_distance_m = 3.5;
  options.focal_px = 1200;
  return options;
}

}  // namespace proj::testing
