#include "datasets/synthetic/synthetic_street.h"

#include <cmath>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

namespace proj {
namespace {

double HeadingDeg(const StrechaCamera& camera) {
  const Eigen::Vector3d forward = camera.R.col(2);
  return std::atan2(forward.y(), forward.x()) * 180.0 / M_PI;
}

TEST(SyntheticStreet, DrivesForwardStopsOnceAndTurnsNinetyDegrees) {
  SyntheticStreetOptions options;
  const std::vector<StrechaCamera> cameras = MakeStreetCameras(options);
  ASSERT_EQ(static_cast<int>(cameras.size()), options.num_frames);
  int stopped = 0;
  double length = 0;
  for (size_t i = 1; i < cameras.size(); ++i) {
    const double step = (cameras[i].C - cameras[i - 1].C).norm();
    length += step;
    if (step == 0) {
      ++stopped;
      EXPECT_TRUE(cameras[i].R.isApprox(cameras[i - 1].R));
    } else {
      EXPECT_NEAR(step, options.step_m, 0.05);  // chords of the turn are a little shorter
    }
    EXPECT_NEAR(cameras[i].C.z(), options.camera_height_m, 1e-12);
    // Forward motion: the camera moves along its viewing direction (within the turn's chord).
    if (step > 0) {
      const Eigen::Vector3d direction = (cameras[i].C - cameras[i - 1].C).normalized();
      EXPECT_GT(direction.dot(cameras[i].R.col(2)), std::cos(10 * M_PI / 180));
    }
  }
  EXPECT_EQ(stopped, options.stop_frames - 1);
  EXPECT_NEAR(length, (options.num_frames - options.stop_frames) * options.step_m, 0.5);
  EXPECT_NEAR(HeadingDeg(cameras.back()) - HeadingDeg(cameras.front()), 90, 1e-9);
  EXPECT_EQ(cameras.front().width, 1226);
  EXPECT_EQ(cameras.front().height, 370);
}

TEST(SyntheticStreet, CamerasStandInTheStreetNotInsideBuildings) {
  SyntheticStreetOptions options;
  options.num_threads = 2;
  const std::vector<StrechaCamera> cameras = MakeStreetCameras(options);
  const synthetic::SyntheticWorld world = BuildStreetWorld(options);
  EXPECT_GT(world.boxes().size(), 10u);
  for (const StrechaCamera& camera : cameras) EXPECT_FALSE(world.InsideAnyBox(camera.C));
}

TEST(SyntheticStreet, LoopDrivesAroundABlockBackToItsStart) {
  SyntheticStreetOptions options;
  options.loop = true;
  options.num_frames = 90;
  options.num_threads = 2;
  const std::vector<StrechaCamera> cameras = MakeStreetCameras(options);
  ASSERT_EQ(cameras.size(), 90u);
  double turned = 0;
  for (size_t i = 1; i < cameras.size(); ++i) {
    const double step = (cameras[i].C - cameras[i - 1].C).norm();
    if (step > 0) {
      EXPECT_NEAR(step, options.step_m, 0.05);
    }
    double change = HeadingDeg(cameras[i]) - HeadingDeg(cameras[i - 1]);
    if (change < -180) change += 360;
    EXPECT_GE(change, -1e-9);  // left turns only
    turned += change;
  }
  // Nearly round: one step short of the start, heading nearly back to the first.
  EXPECT_NEAR((cameras.back().C - cameras.front().C).norm(), options.step_m, 0.05);
  EXPECT_GT(turned, 350);
  EXPECT_LE(turned, 360);
  const synthetic::SyntheticWorld world = BuildStreetWorld(options);
  EXPECT_GT(world.boxes().size(), 10u);
  for (const StrechaCamera& camera : cameras) EXPECT_FALSE(world.InsideAnyBox(camera.C));
  // Buildings stand inside the block too (the loop's centre is the origin).
  bool inner = false;
  for (const auto& box : world.boxes()) inner = inner || box.center_xy.norm() < 12;
  EXPECT_TRUE(inner);
}

TEST(SyntheticStreet, BadOptionsAreRejectedNamingTheField) {
  SyntheticStreetOptions options;
  options.num_frames = 20;  // shorter than the turn plus 10 m
  EXPECT_THROW(options.Check(), std::exception);
  options = SyntheticStreetOptions();
  options.radial_k1 = 0.5;
  EXPECT_THROW(options.Check(), std::exception);
}

}  // namespace
}  // namespace proj
