// The surface model's gridding, per-cell rule and hole filling on constructed points, exact;
// the ground sample distance of a constructed nadir view; map positions on several threads
// equal to one MapProjection's.
#include "mvs/surface_model_builder.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/check.h"
#include "geometry/geodesy/map_projection.h"
#include "mvs/ground_sample_distance.h"

namespace proj::mvs {
namespace {

GroundGrid TenByTen() {
  GroundGrid grid;
  grid.west_m = 1000;
  grid.north_m = 2000;
  grid.cell_m = 0.5;
  grid.width = 10;
  grid.height = 10;
  return grid;
}

TEST(SurfaceModelBuilder, GridCoversThePointsOnMultiplesOfTheCellSize) {
  const std::vector<Eigen::Vector3d> points = {{1000.2, 2000.1, 5}, {1003.9, 1997.6, 6}, {1001.0, 1999.0, 7}};
  const GroundGrid grid = GridCovering(points, 0.5, 0);
  EXPECT_DOUBLE_EQ(grid.west_m, 1000.0);
  EXPECT_DOUBLE_EQ(grid.north_m, 2000.5);
  EXPECT_EQ(grid.width, 8);   // eastings 1000.2 .. 1003.9: columns 2000 .. 2007 of 0.5 m
  EXPECT_EQ(grid.height, 6);  // northings 1997.6 .. 2000.1: rows with north edges 2000.5 .. 1998.0
  for (const Eigen::Vector3d& p : points) {
    int col = 0, row = 0;
    EXPECT_TRUE(grid.CellOf(p.head<2>(), &col, &row)) << p.transpose();
  }
  // A stray point far away widens the grid unless it is trimmed.
  std::vector<Eigen::Vector3d> with_stray;
  for (int i = 0; i < 999; ++i) with_stray.emplace_back(1000 + 0.004 * i, 2000 - 0.003 * i, 0);
  with_stray.emplace_back(5000, 2000, 0);
  EXPECT_GT(GridCovering(with_stray, 0.5, 0).width, 8000);
  EXPECT_EQ(GridCovering(with_stray, 0.5, 0.001).width, 8);
  EXPECT_THROW(GridCovering({}, 0.5, 0), InputError);
  EXPECT_THROW(GridCovering({{0, 0, 0}, {1e6, 1e6, 0}}, 0.01, 0), InputError);  // too many cells
}

TEST(SurfaceModelBuilder, CellHeightIsThePercentileOfItsPoints) {
  const GroundGrid grid = TenByTen();
  std::vector<Eigen::Vector3d> points;
  // Cell (2, 3): eleven points with heights 10 .. 20, listed out of order.
  for (int i : {5, 0, 10, 3, 8, 1, 9, 2, 7, 4, 6}) {
    points.emplace_back(grid.CellCenter(2, 3).x() + 0.01 * i, grid.CellCenter(2, 3).y(), 10 + i);
  }
  points.emplace_back(grid.CellCenter(7, 1).x(), grid.CellCenter(7, 1).y(), 42);  // one point
  points.emplace_back(grid.CellCenter(4, 4).x(), grid.CellCenter(4, 4).y(), 1);   // two points
  points.emplace_back(grid.CellCenter(4, 4).x(), grid.CellCenter(4, 4).y(), 3);
  points.emplace_back(900, 2000, 99);  // outside: ignored
  const SurfaceModel p90 = RasterizeHeights(points, grid, 90);
  EXPECT_EQ(p90.At(2, 3), 19.0f);  // rank round(0.9 * 10) = 9 of 10..20
  EXPECT_EQ(p90.At(7, 1), 42.0f);
  EXPECT_EQ(p90.At(4, 4), 3.0f);  // two points: the higher
  const SurfaceModel top = RasterizeHeights(points, grid, 100);
  EXPECT_EQ(top.At(2, 3), 20.0f);
  EXPECT_EQ(RasterizeHeights(points, grid, 50).At(2, 3), 15.0f);
  int known = 0;
  for (int row = 0; row < grid.height; ++row) {
    for (int col = 0; col < grid.width; ++col) known += p90.Known(col, row);
  }
  EXPECT_EQ(known, 3);
}

// A tilted plane with nodata cut into it.
SurfaceModel Plane(const GroundGrid& grid) {
  SurfaceModel model;
  model.grid = grid;
  for (int row = 0; row < grid.height; ++row) {
    for (int col = 0; col < grid.width; ++col) model.height_m.push_back(static_cast<float>(50 + 0.3 * col - 0.7 * row));
  }
  return model;
}

void Cut(int col0, int row0, int cols, int rows, SurfaceModel* model) {
  for (int row = row0; row < row0 + rows; ++row) {
    for (int col = col0; col < col0 + cols; ++col) model->height_m[model->grid.Index(col, row)] = SurfaceModel::kNoData;
  }
}

TEST(SurfaceModelBuilder, SmallHolesAreFilledWithThePlaneAroundThem) {
  GroundGrid grid = TenByTen();
  grid.width = 30;
  grid.height = 20;
  const SurfaceModel truth = Plane(grid);
  SurfaceModel model = truth;
  Cut(3, 4, 4, 3, &model);     // 4x3: every cell within 2 cells of the rim
  Cut(12, 3, 10, 10, &model);  // 10x10: its middle 5 cells from the rim
  Cut(0, 15, 3, 2, &model);    // touches the west edge: outside the survey
  EXPECT_EQ(FillHoles(/*fill_limit_cells=*/3, &model), 12u);
  for (int row = 4; row < 7; ++row) {
    for (int col = 3; col < 7; ++col) EXPECT_NEAR(model.At(col, row), truth.At(col, row), 1e-4) << col << "," << row;
  }
  EXPECT_FALSE(model.Known(16, 8));  // the large hole stays whole
  EXPECT_FALSE(model.Known(12, 3));
  EXPECT_FALSE(model.Known(2, 15));

  // With a limit of 5 cells the large hole is filled too, the plane again.
  EXPECT_EQ(FillHoles(5, &model), 100u);
  for (int row = 3; row < 13; ++row) {
    for (int col = 12; col < 22; ++col) EXPECT_NEAR(model.At(col, row), truth.At(col, row), 1e-3) << col << "," << row;
  }
  EXPECT_FALSE(model.Known(0, 15));
  EXPECT_EQ(FillHoles(0.5, &model), 0u);  // under one cell: nothing
}

TEST(SurfaceModelBuilder, BuildChecksItsOptions) {
  SurfaceModelOptions options;
  EXPECT_THROW(BuildSurfaceModel({{0, 0, 0}}, options), InputError);  // no cell size
  options.cell_m = 0.1;
  options.cell_percentile = 101;
  EXPECT_THROW(BuildSurfaceModel({{0, 0, 0}}, options), InputError);
  options.cell_percentile = 90;
  options.fill_limit_m = -1;
  EXPECT_THROW(BuildSurfaceModel({{0, 0, 0}}, options), InputError);
  options.fill_limit_m = 0.3;  // 3 cells
  // A ring of points around one empty cell: built, and the cell filled from the ring.
  std::vector<Eigen::Vector3d> points;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) {
      if (row != 1 || col != 1) points.emplace_back(0.05 + 0.1 * col, -0.05 - 0.1 * row, 7);
    }
  }
  const SurfaceModel model = BuildSurfaceModel(points, options);
  EXPECT_EQ(model.grid.width, 3);
  EXPECT_EQ(model.grid.height, 3);
  EXPECT_NEAR(model.At(1, 1), 7.0f, 1e-6);
}

TEST(GroundSampleDistance, DepthOverFocalAtTheDenseSize) {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kPinhole, 4000, 3000, 2000));
  SceneImage image;
  image.name = "a.jpg";
  image.camera_id = 0;
  image.registered = true;
  // Looking down from 100 m: the camera's z axis is the world's -z.
  image.cam_from_world.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()));
  image.cam_from_world.translation = Eigen::Vector3d(0, 0, 100);
  image.point3d_ids.assign(5, kInvalidId);
  scene.images.push_back(image);
  EXPECT_FALSE(GroundSampleDistance(scene, 0).has_value());  // no point
  for (int i = 0; i < 5; ++i) scene.AddPoint(Eigen::Vector3d(i, -i, 0), {{0, i}});
  ASSERT_TRUE(GroundSampleDistance(scene, 0).has_value());
  EXPECT_NEAR(*GroundSampleDistance(scene, 0), 100.0 / 2000, 1e-9);
  EXPECT_NEAR(*GroundSampleDistance(scene, 2000), 100.0 / 1000, 1e-9);  // images halved
  EXPECT_NEAR(*GroundSampleDistance(scene, 8000), 100.0 / 2000, 1e-9);  // never enlarged
}

TEST(SurfaceModelBuilder, MapPositionsOnThreadsEqualOneProjection) {
  EnuFrame frame;
  frame.ref_latitude_deg = 46.8428;
  frame.ref_longitude_deg = -92.0016;
  frame.ref_altitude_m = 190.0;
  std::vector<Eigen::Vector3f> enu;
  for (int i = 0; i < 10000; ++i) enu.emplace_back(0.37f * i - 1800, 1200 - 0.21f * i, 0.01f * i);
  const std::vector<Eigen::Vector3d> positions = MapPositionsOf(enu, frame, 3);
  const MapProjection projection(frame);
  ASSERT_EQ(positions.size(), enu.size());
  for (size_t i = 0; i < enu.size(); i += 997) {
    EXPECT_EQ(positions[i], projection.MapFromEnu(enu[i].cast<double>())) << i;
  }
}

}  // namespace
}  // namespace proj::mvs
