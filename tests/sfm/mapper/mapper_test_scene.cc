#include "tests/sfm/mapper/mapper_test_scene.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>

#include "core/check.h"
#include "geometry/ransac/estimate_similarity.h"

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

Scene MakeNadirFlight(int rows, int cols, int num_points, uint64_t seed, double k1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> pixel_noise(0.0, 0.5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 1200, 900, 1000));
  scene.cameras[0].params[scene.cameras[0].ExtraIndices().front()] = k1;
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      SceneImage image;
      image.name = "flight_" + std::to_string(row) + "_" + std::to_string(col) + ".jpg";
      image.camera_id = 0;
      image.registered = true;
      const Eigen::Vector3d center(15.0 * col, 15.0 * row, 40.0 + 0.5 * unit(rng));
      image.cam_from_world =
          testing::LookAt(center, center - Eigen::Vector3d(0.01 * unit(rng), 0.01 * unit(rng), 40));
      scene.images.push_back(image);
    }
  }
  for (int p = 0; p < num_points; ++p) {
    const double x = -15 + 15.0 * (cols + 1) * (0.5 + 0.5 * unit(rng));
    const double y = -15 + 15.0 * (rows + 1) * (0.5 + 0.5 * unit(rng));
    const Eigen::Vector3d position(x, y, 2.0 * std::sin(0.1 * x) * std::cos(0.07 * y));
    std::vector<TrackElement> track;
    for (int i = 0; i < static_cast<int>(scene.images.size()); ++i) {
      SceneImage& image = scene.images[i];
      Eigen::Vector2d uv;
      if (!scene.cameras[0].Project(image.cam_from_world * position, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > 1200 || uv.y() > 900) continue;
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv + Eigen::Vector2d(pixel_noise(rng), pixel_noise(rng)));
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() >= 2) scene.AddPoint(position, track);
  }
  return scene;
}

CenterErrors CenterErrorsAfterSimilarity(const Scene& truth, const Scene& model) {
  std::vector<Eigen::Vector3d> src, dst;
  for (size_t i = 0; i < model.images.size(); ++i) {
    if (!model.images[i].registered) continue;
    src.push_back(model.images[i].cam_from_world.Center());
    dst.push_back(truth.images[i].cam_from_world.Center());
  }
  CenterErrors errors;
  errors.num_registered = static_cast<int>(src.size());
  if (src.size() < 3) return errors;
  RansacOptions ransac;
  ransac.max_error = 1e9;
  const Sim3d fit = EstimateSimilarityTransform(ransac, src, dst).model;
  std::vector<double> distances;
  for (size_t k = 0; k < src.size(); ++k) distances.push_back((fit * src[k] - dst[k]).norm());
  std::sort(distances.begin(), distances.end());
  errors.median_m = distances[distances.size() / 2];
  errors.max_m = distances.back();
  return errors;
}

}  // namespace proj::testing
