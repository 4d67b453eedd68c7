#include "tests/sfm/global/ring_view_graph.h"

#include <cmath>
#include <random>
#include <utility>

#include <Eigen/Geometry>

#include "matching/two_view_geometry.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj::testing {

SyntheticViewGraph VerifyViewGraph(Scene truth, const std::vector<double>& prior_focal_px) {
  SyntheticViewGraph out;
  out.truth = std::move(truth);
  const int num_cameras = static_cast<int>(prior_focal_px.size());
  const int num_images = static_cast<int>(out.truth.images.size());
  out.input = out.truth;
  out.input.points.clear();
  out.input.next_point_id = 0;
  for (int c = 0; c < num_cameras; ++c) out.input.cameras[c].SetFocal(prior_focal_px[c]);
  for (SceneImage& image : out.input.images) {
    image.registered = false;
    image.cam_from_world = Rigid3d();
    std::fill(image.point3d_ids.begin(), image.point3d_ids.end(), kInvalidId);
  }
  // Every pair's correspondences (the true points they share), verified under the priors.
  std::vector<std::vector<std::vector<FeatureMatch>>> matches(
      num_images, std::vector<std::vector<FeatureMatch>>(num_images));
  for (const auto& [id, point] : out.truth.points) {
    for (size_t a = 0; a < point.track.size(); ++a) {
      for (size_t b = a + 1; b < point.track.size(); ++b) {
        const TrackElement& e1 = point.track[a];
        const TrackElement& e2 = point.track[b];
        matches[e1.image_id][e2.image_id].push_back({e1.keypoint_index, e2.keypoint_index});
      }
    }
  }
  TwoViewGeometryOptions verification;
  std::vector<PairMatches> verified_matches;
  for (int i = 0; i < num_images; ++i) {
    for (int j = i + 1; j < num_images; ++j) {
      const SceneImage& image1 = out.input.images[i];
      const SceneImage& image2 = out.input.images[j];
      TwoViewGeometry geometry = EstimateTwoViewGeometry(
          verification, out.input.cameras[image1.camera_id], image1.keypoints,
          out.input.cameras[image2.camera_id], image2.keypoints, matches[i][j]);
      if (geometry.configuration == TwoViewConfiguration::kDegenerate) continue;
      verified_matches.push_back({{i, j}, geometry.inlier_matches});
      out.pairs.push_back({{i, j}, std::move(geometry)});
    }
  }
  out.tracks = BuildTracks(out.input, verified_matches);
  return out;
}

RingViewGraph MakeRingViewGraph(const RingViewGraphOptions& options) {
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::normal_distribution<double> noise(0.0, options.noise_px);
  Scene truth;
  const int num_cameras = static_cast<int>(options.prior_focal_px.size());
  for (int c = 0; c < num_cameras; ++c) {
    truth.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, options.width, options.height,
                                              options.true_focal_px));
  }
  for (int i = 0; i < options.num_images; ++i) {
    SceneImage image;
    image.name = "ring_" + std::to_string(i) + ".jpg";
    image.camera_id = i % num_cameras;
    image.registered = true;
    // The whole circle around the vertical (y) axis, looking down at the box from 1.5-3 m;
    // distances jittered by 7% as `sfm synth` does (equal distances to a common look-at point
    // are the degenerate configuration of focal lengths from F).
    const double angle = 2 * M_PI * i / options.num_images;
    const double radius = options.radius_m * (1 + 0.07 * unit(rng));
    const Eigen::Vector3d center(radius * std::sin(angle), -2.25 + 0.75 * unit(rng), -radius * std::cos(angle));
    image.cam_from_world = LookAt(center, Eigen::Vector3d(unit(rng), 0.5 * unit(rng), unit(rng)));
    truth.images.push_back(image);
  }
  for (int p = 0; p < options.num_points; ++p) {
    const Eigen::Vector3d position(2.5 * unit(rng), 1.5 * unit(rng), 2.5 * unit(rng));
    // Points lie on surfaces: seen only from within 70 degrees of a horizontal normal.
    const double normal_angle = M_PI * unit(rng);
    const Eigen::Vector3d normal(std::sin(normal_angle), 0, -std::cos(normal_angle));
    std::vector<TrackElement> track;
    for (int i = 0; i < options.num_images; ++i) {
      SceneImage& image = truth.images[i];
      const Eigen::Vector3d to_camera = (image.cam_from_world.Center() - position).normalized();
      if (to_camera.dot(normal) < std::cos(options.max_view_angle_deg * M_PI / 180)) continue;
      Eigen::Vector2d uv;
      if (!truth.cameras[image.camera_id].Project(image.cam_from_world * position, &uv)) continue;
      uv += Eigen::Vector2d(noise(rng), noise(rng));
      if (uv.x() < 0 || uv.y() < 0 || uv.x() > options.width || uv.y() > options.height) continue;
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv);
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() >= 2) truth.AddPoint(position, track);
  }

  return VerifyViewGraph(std::move(truth), options.prior_focal_px);
}

double MaxAlignedDistance(const std::vector<Eigen::Vector3d>& truth,
                          const std::vector<Eigen::Vector3d>& estimate, double scale) {
  Eigen::Matrix3Xd from(3, truth.size()), to(3, truth.size());
  for (size_t i = 0; i < truth.size(); ++i) {
    from.col(i) = estimate[i];
    to.col(i) = truth[i];
  }
  const Eigen::Matrix4d similarity = Eigen::umeyama(from, to, true);
  double worst = 0;
  for (size_t i = 0; i < truth.size(); ++i) {
    const Eigen::Vector3d aligned = (similarity * estimate[i].homogeneous()).head<3>();
    worst = std::max(worst, (aligned - truth[i]).norm() / scale);
  }
  return worst;
}

void RegisteredCentres(const Scene& truth, const Scene& estimate, std::vector<Eigen::Vector3d>* true_centres,
                       std::vector<Eigen::Vector3d>* centres) {
  true_centres->clear();
  centres->clear();
  for (size_t i = 0; i < estimate.images.size(); ++i) {
    if (!estimate.images[i].registered) continue;
    true_centres->push_back(truth.images[i].cam_from_world.Center());
    centres->push_back(estimate.images[i].cam_from_world.Center());
  }
}

}  // namespace proj::testing
