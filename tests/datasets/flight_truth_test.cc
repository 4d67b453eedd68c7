#include "datasets/synthetic/flight_truth.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "io/float_raster_file.h"
#include "io/image_decode.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

SyntheticFlightOptions SmallFlight() {
  SyntheticFlightOptions options;
  options.num_images = 12;
  options.width = 320;
  options.height = 240;
  options.focal_px = 275;
  options.num_gcps = 0;
  return options;
}

TEST(FlightTruth, IsTheFirstSurfaceFromAboveAndWhatANadirImageSeesThere) {
  const SyntheticFlightOptions options = SmallFlight();
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  const synthetic::TerrainWorld world(options.world, options.seed, Eigen::Vector2d(-200, -200),
                                      Eigen::Vector2d(200, 200));
  const double gsd_m = options.altitude_m / options.focal_px;
  const FlightTruthGrid grid = FlightTruthGridOf(shots, gsd_m);
  // The grid covers every image's footprint.
  for (const SyntheticFlightShot& shot : shots) {
    EXPECT_GT(shot.camera.C.x(), grid.west_m + 0.5 * options.width * gsd_m - 2);
    EXPECT_LT(shot.camera.C.x(), grid.west_m + grid.width * gsd_m - 0.5 * options.width * gsd_m + 2);
    EXPECT_LT(shot.camera.C.y(), grid.north_m - 0.5 * options.height * gsd_m + 2);
  }
  const FlightTruth truth = RenderFlightTruth(world, grid, options.altitude_m, 0);
  ASSERT_EQ(truth.heights.width, grid.width);
  ASSERT_EQ(truth.colour.height, grid.height);
  float highest = -1e9f;
  for (int row = 0; row < grid.height; row += 7) {
    for (int col = 0; col < grid.width; col += 7) {
      const Eigen::Vector3d top(grid.west_m + (col + 0.5) * gsd_m, grid.north_m - (row + 0.5) * gsd_m, 500);
      EXPECT_NEAR(truth.heights.At(col, row), 500 - world.HitDistance(top, Eigen::Vector3d(0, 0, -1)), 1e-3);
      highest = std::max(highest, truth.heights.At(col, row));
    }
  }
  EXPECT_GT(highest, options.world.relief_m);  // roofs are in it
  // The first image's pixels over the truth's cells (row 0 north, x east) show their colour.
  const StrechaCamera& camera = shots.front().camera;
  const Image image = synthetic::RenderTerrainView(world, camera, 0);
  std::vector<double> differences;
  for (int row = 0; row < grid.height; row += 3) {
    for (int col = 0; col < grid.width; col += 3) {
      const Eigen::Vector3d point(grid.west_m + (col + 0.5) * gsd_m, grid.north_m - (row + 0.5) * gsd_m,
                                  truth.heights.At(col, row));
      const Eigen::Vector3d pixel = camera.K * camera.R.transpose() * (point - camera.C);
      const int x = static_cast<int>(pixel.x() / pixel.z()), y = static_cast<int>(pixel.y() / pixel.z());
      if (x < 10 || y < 10 || x >= camera.width - 10 || y >= camera.height - 10) continue;
      double difference = 0;
      for (int c = 0; c < 3; ++c) {
        difference += std::abs(image.pixel(x, y)[c] - truth.colour.pixel(col, row)[c]) / 3.0;
      }
      differences.push_back(difference);
    }
  }
  ASSERT_GT(differences.size(), 1000u);
  std::nth_element(differences.begin(), differences.begin() + differences.size() / 2, differences.end());
  EXPECT_LT(differences[differences.size() / 2], 12);
}

TEST(FlightTruth, IsWrittenBesideTheImages) {
  SyntheticFlightOptions options = SmallFlight();
  options.num_images = 2;
  options.width = 64;
  options.height = 48;
  options.focal_px = 55;
  options.truth_rasters = true;
  options.truth_cell_m = 1.0;
  const std::string dir = testing::MakeTempDir("flight_truth");
  WriteSyntheticFlight(options, dir);
  const FloatRaster heights = ReadFloatRasterFile(dir + "/truth/dsm.bin", 1);
  const Image colour = ReadImageFile(dir + "/truth/orthophoto.png");
  EXPECT_EQ(heights.width, colour.width);
  EXPECT_EQ(heights.height, colour.height);
  EXPECT_GT(heights.width, 90);  // 64 px of 80/55 m and the shots' spread
  const FlightTruthGrid grid = ReadFlightTruthGrid(dir + "/truth/truth.json");
  EXPECT_EQ(grid.width, heights.width);
  EXPECT_EQ(grid.height, heights.height);
  EXPECT_EQ(grid.cell_m, 1.0);
}

}  // namespace
}  // namespace proj
