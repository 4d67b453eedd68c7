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

// The small flight's plan, its world and the truth grid over its footprints.
struct SmallFlightScene {
  SyntheticFlightOptions options = SmallFlight();
  std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(options);
  synthetic::TerrainWorld world{options.world, options.seed, Eigen::Vector2d(-200, -200), Eigen::Vector2d(200, 200)};
  double gsd_m = options.altitude_m / options.focal_px;
  FlightTruthGrid grid = FlightTruthGridOf(shots, gsd_m);
};

TEST(FlightTruth, IsTheFirstSurfaceFromAboveAndWhatANadirImageSeesThere) {
  const SmallFlightScene scene;
  const SyntheticFlightOptions& options = scene.options;
  const std::vector<SyntheticFlightShot>& shots = scene.shots;
  const synthetic::TerrainWorld& world = scene.world;
  const double gsd_m = scene.gsd_m;
  const FlightTruthGrid& grid = scene.grid;
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

// A camera with radial distortion (SIMPLE_RADIAL k1, barrel) shows a truth cell where the
// distorted projection puts it, not the pinhole one (the two differ by pixels near the edges).
TEST(FlightTruth, ADistortedViewShowsEachCellAtItsDistortedPixel) {
  const SmallFlightScene flight;
  const FlightTruthGrid& grid = flight.grid;
  const FlightTruth truth = RenderFlightTruth(flight.world, grid, flight.options.altitude_m, 0);
  StrechaCamera camera = flight.shots.front().camera;
  const double k1 = -0.1;
  camera.distortion = Eigen::Vector3d(k1, 0, 0);
  const Image image = synthetic::RenderTerrainView(flight.world, camera, 0);
  const double f = camera.K(0, 0), cx = camera.K(0, 2), cy = camera.K(1, 2);
  std::vector<double> distorted, pinhole;  // colour differences near the edges
  for (int row = 0; row < grid.height; row += 2) {
    for (int col = 0; col < grid.width; col += 2) {
      const Eigen::Vector3d point(grid.west_m + (col + 0.5) * flight.gsd_m, grid.north_m - (row + 0.5) * flight.gsd_m,
                                  truth.heights.At(col, row));
      const Eigen::Vector3d in_camera = camera.R.transpose() * (point - camera.C);
      const Eigen::Vector2d n = in_camera.head<2>() / in_camera.z();
      if (n.squaredNorm() < 0.16) continue;  // near the centre both projections agree
      for (const bool distort : {true, false}) {
        const Eigen::Vector2d d = distort ? Eigen::Vector2d(n * (1 + k1 * n.squaredNorm())) : n;
        const int x = static_cast<int>(f * d.x() + cx), y = static_cast<int>(f * d.y() + cy);
        if (x < 2 || y < 2 || x >= camera.width - 2 || y >= camera.height - 2) continue;
        double difference = 0;
        for (int c = 0; c < 3; ++c) {
          difference += std::abs(image.pixel(x, y)[c] - truth.colour.pixel(col, row)[c]) / 3.0;
        }
        (distort ? distorted : pinhole).push_back(difference);
      }
    }
  }
  ASSERT_GT(distorted.size(), 200u);
  ASSERT_GT(pinhole.size(), 200u);
  auto median = [](std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
  };
  EXPECT_LT(median(distorted), 12);
  EXPECT_GT(median(pinhole), 1.5 * median(distorted));
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
