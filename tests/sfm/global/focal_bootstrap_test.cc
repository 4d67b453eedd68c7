// A narrow lens without an EXIF focal length (focal_bootstrap.h): views all round an object
// through a 12-degree lens (focal 3072 px at 640x480, as `sfm synth --object`), the prior
// 4x too short (768 px). The view graph calibration finds no minimum and keeps the prior;
// the focal length of a small incremental model of the best-linked views lets the global
// mapper place every view where it is. Without it the model is wrong.
#include <random>

#include <gtest/gtest.h>

#include "datasets/synthetic/synthetic_object.h"
#include "sfm/global/global_mapper.h"
#include "tests/sfm/global/ring_view_graph.h"

namespace proj {
namespace {

// Views of points on a 0.1 m sphere, each seen within ~70 deg of its normal, verified under
// the 768 px prior.
testing::SyntheticViewGraph MakeNarrowLensViewGraph(int num_views, int num_points) {
  SyntheticObjectOptions object;
  object.num_views = num_views;
  const std::vector<StrechaCamera> cameras = MakeObjectCameras(object);
  Scene truth;
  truth.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, object.width, object.height, object.focal_px));
  for (int i = 0; i < num_views; ++i) {
    SceneImage image;
    image.name = std::to_string(i) + ".jpg";
    image.camera_id = 0;
    image.registered = true;
    image.cam_from_world = Rigid3d(cameras[i].CamFromWorldRotation(), cameras[i].CamFromWorldTranslation());
    truth.images.push_back(image);
  }
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0, 1);
  for (int p = 0; p < num_points; ++p) {
    const Eigen::Vector3d surface_normal = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
    const Eigen::Vector3d position = 0.1 * surface_normal;
    std::vector<TrackElement> track;
    for (int i = 0; i < num_views; ++i) {
      if ((cameras[i].C - position).normalized().dot(surface_normal) < 0.35) continue;
      Eigen::Vector2d uv;
      if (!cameras[i].Project(position, &uv)) continue;
      SceneImage& image = truth.images[i];
      track.push_back({i, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(uv + 0.3 * Eigen::Vector2d(normal(rng), normal(rng)));
      image.point3d_ids.push_back(kInvalidId);
    }
    if (track.size() >= 2) truth.AddPoint(position, track);
  }
  return testing::VerifyViewGraph(std::move(truth), {768});
}

// The global mapper's largest camera error relative to the 2 m radius of the views.
double MapGlobally(bool bootstrap, double* focal_px, int* num_registered) {
  testing::SyntheticViewGraph graph = MakeNarrowLensViewGraph(60, 400);
  GlobalMapperOptions options;
  options.refinement.num_threads = 2;
  options.focal_bootstrap.enabled = bootstrap;
  GlobalMapperTrace trace;
  const MapperSummary summary = RunGlobalMapper(options, graph.tracks, graph.pairs, &graph.input, &trace);
  EXPECT_TRUE(summary.success) << summary.failure_reason;
  // The view graph cannot tell the focal length: the prior stays.
  EXPECT_FALSE(trace.focal_calibration.at(0).calibrated);
  *focal_px = graph.input.cameras[0].params[0];
  *num_registered = graph.input.NumRegisteredImages();
  std::vector<Eigen::Vector3d> truth, estimate;
  testing::RegisteredCentres(graph.truth, graph.input, &truth, &estimate);
  return testing::MaxAlignedDistance(truth, estimate, 2.0);
}

TEST(FocalBootstrap, GivesTheGlobalMapperANarrowLensFocalLength) {
  double focal_px = 0;
  int num_registered = 0;
  const double error = MapGlobally(/*bootstrap=*/true, &focal_px, &num_registered);
  EXPECT_EQ(num_registered, 60);
  EXPECT_NEAR(focal_px, 3072, 0.02 * 3072);
  EXPECT_LT(error, 0.005);  // 1 cm on a 2 m radius

  const double without = MapGlobally(/*bootstrap=*/false, &focal_px, &num_registered);
  EXPECT_GT(without, 10 * error) << "the prior alone gave an error of " << without;
}

}  // namespace
}  // namespace proj
