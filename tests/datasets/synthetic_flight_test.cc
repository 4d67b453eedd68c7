#include "datasets/synthetic/synthetic_flight.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/check.h"
#include "io/exif.h"
#include "io/image_decode.h"
#include "io/strecha_camera.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

SyntheticFlightOptions SmallFlight() {
  SyntheticFlightOptions options;
  options.num_images = 40;
  options.width = 320;
  options.height = 240;
  options.focal_px = 275;
  return options;
}

TEST(SyntheticFlight, PlanHasSurveyOverlapAndNoisyGps) {
  const SyntheticFlightOptions options = SmallFlight();
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  ASSERT_EQ(shots.size(), 40u);
  // Consecutive shots on a line are (1 - 0.75) of the along-track footprint apart.
  const double along_m = options.height / options.focal_px * options.altitude_m;
  const double step = (shots[2].camera.C - shots[1].camera.C).head<2>().norm();
  EXPECT_NEAR(step, 0.25 * along_m, 2.0);
  const LocalEnuConverter enu(options.origin);
  double horizontal = 0, vertical = 0;
  for (const SyntheticFlightShot& shot : shots) {
    // Nadir: the viewing direction points down.
    EXPECT_LT(shot.camera.R.col(2).z(), -0.99);
    EXPECT_NEAR(shot.camera.C.z(), options.altitude_m, 4.0);
    ASSERT_TRUE(shot.gps && shot.gps->altitude_m);
    const Eigen::Vector3d error =
        enu.EnuFromWgs84({shot.gps->latitude_deg, shot.gps->longitude_deg, *shot.gps->altitude_m}) -
        shot.camera.C;
    horizontal += error.head<2>().squaredNorm() / 2;
    vertical += error.z() * error.z();
  }
  // RMS noise near the requested 1.5 m horizontal and 3 m vertical.
  EXPECT_NEAR(std::sqrt(horizontal / shots.size()), 1.5, 0.6);
  EXPECT_NEAR(std::sqrt(vertical / shots.size()), 3.0, 1.2);
}

TEST(SyntheticFlight, ObliqueTiltsTowardsTheFlightDirection) {
  SyntheticFlightOptions options = SmallFlight();
  options.pitch_deg = 30;
  options.attitude_jitter_deg = 0;
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  const Eigen::Vector3d view = shots[0].camera.R.col(2);
  EXPECT_NEAR(std::acos(-view.z()) * 180 / M_PI, 30, 1e-6);
  const Eigen::Vector3d flight = shots[1].camera.C - shots[0].camera.C;
  EXPECT_GT(view.head<2>().dot(flight.head<2>()), 0);
}

TEST(SyntheticFlight, FaultsAreInjected) {
  SyntheticFlightOptions options = SmallFlight();
  options.gps_fault = GpsFault::kMissing;
  int missing = 0;
  for (const auto& shot : PlanSyntheticFlight(options)) missing += !shot.gps;
  EXPECT_EQ(missing, 6);  // indices 3, 10, 17, 24, 31, 38
  options.gps_fault = GpsFault::kHover;
  const auto hover = PlanSyntheticFlight(options);
  EXPECT_EQ(hover[39].gps->latitude_deg, hover[0].gps->latitude_deg);
  options.gps_fault = GpsFault::kJump;
  const auto jump = PlanSyntheticFlight(options);
  const LocalEnuConverter enu(options.origin);
  const auto at = [&](int i) {
    return enu.EnuFromWgs84({jump[i].gps->latitude_deg, jump[i].gps->longitude_deg, *jump[i].gps->altitude_m});
  };
  EXPECT_GT((at(20) - jump[20].camera.C).norm(), 300);
  EXPECT_LT((at(21) - jump[21].camera.C).norm(), 20);
}

TEST(SyntheticFlight, WritesImagesWithGpsAndGroundTruth) {
  SyntheticFlightOptions options = SmallFlight();
  options.num_images = 3;
  options.num_threads = 2;
  const std::string dir = testing::MakeTempDir("synthetic_flight");
  std::filesystem::remove_all(dir + "/images");
  const double seconds = WriteSyntheticFlight(options, dir);
  EXPECT_GT(seconds, 0);
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  for (const SyntheticFlightShot& shot : shots) {
    const std::string path = dir + "/images/" + shot.name;
    const ExifData exif = ReadExif(path);
    ASSERT_TRUE(exif.gps) << path;
    EXPECT_NEAR(exif.gps->latitude_deg, shot.gps->latitude_deg, 1e-9);
    EXPECT_NEAR(*exif.gps->altitude_m, *shot.gps->altitude_m, 1e-3);
    EXPECT_EQ(exif.make, "Synthetic");
    const Image image = ReadImageFile(path);
    EXPECT_EQ(image.width, 320);
    // Textured terrain: not a flat colour.
    int min = 255, max = 0;
    for (uint8_t v : image.data) {
      min = std::min<int>(min, v);
      max = std::max<int>(max, v);
    }
    EXPECT_GT(max - min, 100);
    const StrechaCamera truth = ReadStrechaCamera(dir + "/gt_dense_cameras/" + shot.name + ".camera");
    EXPECT_LT((truth.C - shot.camera.C).norm(), 1e-9);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/gt_enu_origin.txt"));
}

TEST(SyntheticFlight, RejectsBadOptions) {
  SyntheticFlightOptions options = SmallFlight();
  options.altitude_m = 10;  // below the buildings
  EXPECT_THROW(PlanSyntheticFlight(options), InputError);
  options = SmallFlight();
  options.pitch_deg = 75;
  EXPECT_THROW(PlanSyntheticFlight(options), InputError);
}

}  // namespace
}  // namespace proj
