#include "mvs/orthophoto.h"

#include <cmath>
#include <functional>
#include <limits>

#include <gtest/gtest.h>

#include "mvs/grid_enu_field.h"
#include "mvs/height_field_depth.h"

namespace proj::mvs {
namespace {

// A scene of exact geometry: the ground z = 0 textured by `ground`, and optionally a box
// building (x, y in [-half, half], z in [0, height]) with a uniform roof and wall colour.
struct TestScene {
  std::function<Eigen::Vector3f(double x, double y)> ground;
  double building_half_m = 0;  // 0: no building
  double building_height_m = 0;
  Eigen::Vector3f building_colour = {250, 10, 10};

  // Colour seen along the ray origin + t direction.
  Eigen::Vector3f Trace(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction) const {
    if (building_half_m > 0) {
      double t_near = 0, t_far = std::numeric_limits<double>::infinity();
      const Eigen::Vector3d low(-building_half_m, -building_half_m, 0);
      const Eigen::Vector3d high(building_half_m, building_half_m, building_height_m);
      bool hit = true;
      for (int axis = 0; axis < 3 && hit; ++axis) {
        if (std::abs(direction[axis]) < 1e-12) {
          hit = origin[axis] >= low[axis] && origin[axis] <= high[axis];
          continue;
        }
        double t0 = (low[axis] - origin[axis]) / direction[axis];
        double t1 = (high[axis] - origin[axis]) / direction[axis];
        if (t0 > t1) std::swap(t0, t1);
        t_near = std::max(t_near, t0);
        t_far = std::min(t_far, t1);
        hit = t_near <= t_far;
      }
      if (hit) return building_colour;
    }
    const double t = -origin.z() / direction.z();
    const Eigen::Vector3d p = origin + t * direction;
    return ground(p.x(), p.y());
  }
  double SurfaceHeight(double x, double y) const {
    const bool on_building = building_half_m > 0 && std::abs(x) <= building_half_m && std::abs(y) <= building_half_m;
    return on_building ? building_height_m : 0.0;
  }
};

// A nadir camera at `centre`, image x east and y south (north up), `gsd_m` on the ground z = 0.
ViewGeometry NadirView(const Eigen::Vector3d& centre, int width, int height, double gsd_m) {
  ViewGeometry view;
  view.camera.width = width;
  view.camera.height = height;
  view.camera.fx = view.camera.fy = centre.z() / gsd_m;
  view.camera.cx = 0.5 * width;
  view.camera.cy = 0.5 * height;
  view.rotation << 1, 0, 0, 0, -1, 0, 0, 0, -1;
  view.translation = -view.rotation * centre;
  return view;
}

Image RenderView(const TestScene& scene, const ViewGeometry& view, float gain) {
  Image image{view.camera.width, view.camera.height, 3, {}};
  image.data.resize(static_cast<size_t>(image.width) * image.height * 3);
  const Eigen::Vector3d centre = view.Center();
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const Eigen::Vector3d direction = view.rotation.transpose() * view.camera.PointAtPixel(x, y, 1.0);
      const Eigen::Vector3f colour = gain * scene.Trace(centre, direction);
      for (int c = 0; c < 3; ++c) {
        image.data[(static_cast<size_t>(y) * image.width + x) * 3 + c] =
            static_cast<uint8_t>(std::clamp(colour[c] + 0.5f, 0.0f, 255.0f));
      }
    }
  }
  return image;
}

OrthophotoViews ViewsOf(const TestScene& scene, const std::vector<ViewGeometry>& geometry,
                        const std::vector<float>& gains) {
  std::vector<Image> images;
  for (size_t i = 0; i < geometry.size(); ++i) images.push_back(RenderView(scene, geometry[i], gains[i]));
  OrthophotoViews views;
  views.geometry = geometry;
  views.load = [images](int view) { return images.at(view); };
  return views;
}

// The grid's map frame is the ENU frame itself: easting = x, northing = y, height = z.
Eigen::Vector3d Identity(const Eigen::Vector3d& p) { return p; }

SurfaceModel SurfaceOf(const TestScene& scene, double west_m, double north_m, double cell_m, int width, int height) {
  SurfaceModel dsm;
  dsm.grid = GroundGrid{west_m, north_m, cell_m, width, height};
  dsm.height_m.resize(dsm.grid.NumCells());
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      const Eigen::Vector2d p = dsm.grid.CellCenter(col, row);
      dsm.height_m[dsm.grid.Index(col, row)] = static_cast<float>(scene.SurfaceHeight(p.x(), p.y()));
    }
  }
  return dsm;
}

Eigen::Vector3f CellColour(const Orthophoto& ortho, int col, int row) {
  const uint8_t* p = &ortho.rgba[4 * ortho.grid.Index(col, row)];
  return {static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2])};
}

Eigen::Vector3f SmoothTexture(double x, double y) {
  return {static_cast<float>(128 + 60 * std::sin(1.3 * x) * std::cos(0.9 * y)),
          static_cast<float>(120 + 50 * std::sin(0.7 * x + 1.1 * y)),
          static_cast<float>(110 + 40 * std::cos(1.7 * y - 0.4 * x))};
}

TEST(GridEnuField, InterpolatesASmoothConversionToBelowAMillimetre) {
  const GroundGrid grid{500000, 5200000, 0.1, 300, 200};
  // A rotation of 1 degree, a scale of 0.9996 and Earth's curvature dropping the heights.
  const auto enu_from_map = [](const Eigen::Vector3d& p) {
    const double x = 0.9996 * (p.x() - 500010), y = 0.9996 * (p.y() - 5199990), a = 0.01745;
    const double r2 = x * x + y * y;
    return Eigen::Vector3d(std::cos(a) * x - std::sin(a) * y, std::sin(a) * x + std::cos(a) * y,
                           p.z() - 100 - r2 / (2 * 6.371e6));
  };
  const GridEnuField field(grid, 100, enu_from_map);
  for (int row : {0, 7, 99, 199}) {
    for (int col : {0, 15, 16, 150, 299}) {
      for (double h : {90.0, 100.0, 131.0}) {
        const Eigen::Vector2d en = grid.CellCenter(col, row);
        EXPECT_LT((field.CellEnu(col, row, h) - enu_from_map({en.x(), en.y(), h})).norm(), 1e-3)
            << col << " " << row << " " << h;
      }
    }
  }
}

TEST(HeightFieldDepth, DrawsAPlaneAtItsExactDepth) {
  const ViewGeometry view = NadirView({0, 0, 20}, 64, 48, 0.25);
  SurfaceModel dsm;
  dsm.grid = GroundGrid{-10, 8, 0.5, 40, 32};
  dsm.height_m.assign(dsm.grid.NumCells(), 2.0f);
  dsm.height_m[dsm.grid.Index(1, 1)] = SurfaceModel::kNoData;  // outside the image
  const GridEnuField enu(dsm.grid, 0, Identity);
  DepthBuffer buffer(view.camera);
  DrawHeightField(dsm, enu, view, 0, dsm.grid.width, 0, dsm.grid.height, &buffer);
  int covered = 0;
  for (float depth : buffer.depth) {
    if (depth == DepthBuffer::kEmpty) continue;
    ++covered;
    EXPECT_NEAR(depth, 18.0, 1e-4);
  }
  // The image sees 14.4 x 10.8 m at the surface, which spans 19.5 x 15.5 m between cell centres.
  EXPECT_EQ(covered, 64 * 48);
}

TEST(Orthophoto, EqualsTheTextureOfAPlaneSeenByThreeCameras) {
  TestScene scene;
  scene.ground = SmoothTexture;
  const std::vector<ViewGeometry> geometry = {NadirView({-5, 0, 30}, 320, 240, 0.1),
                                              NadirView({5, 1, 31}, 320, 240, 0.1),
                                              NadirView({0, -4, 29}, 320, 240, 0.1)};
  const OrthophotoViews views = ViewsOf(scene, geometry, {1, 1, 1});
  const SurfaceModel dsm = SurfaceOf(scene, -12, 8, 0.1, 240, 160);
  OrthophotoOptions options;
  options.tile_cells = 64;
  const Orthophoto ortho = RenderOrthophoto(dsm, views, Identity, options);
  ASSERT_EQ(ortho.rgba.size(), 4 * dsm.grid.NumCells());
  EXPECT_EQ(ortho.NumColoured(), dsm.grid.NumCells());
  double sum_error = 0, max_error = 0;
  for (int row = 0; row < dsm.grid.height; ++row) {
    for (int col = 0; col < dsm.grid.width; ++col) {
      const Eigen::Vector2d p = dsm.grid.CellCenter(col, row);
      const double error = (CellColour(ortho, col, row) - SmoothTexture(p.x(), p.y())).cwiseAbs().maxCoeff();
      sum_error += error;
      max_error = std::max(max_error, error);
    }
  }
  EXPECT_LT(sum_error / dsm.grid.NumCells(), 1.5);
  EXPECT_LT(max_error, 6);
}

TEST(Orthophoto, TakesGroundHiddenBehindABuildingFromAViewThatSeesIt) {
  TestScene scene;
  scene.ground = SmoothTexture;
  scene.building_half_m = 2;
  scene.building_height_m = 10;
  // West camera: the most nadir over the ground east of the building, which its roof hides.
  const std::vector<ViewGeometry> geometry = {NadirView({-3, 0, 30}, 320, 240, 0.1),
                                              NadirView({12, 0, 30}, 320, 240, 0.1)};
  const OrthophotoViews views = ViewsOf(scene, geometry, {1, 1});
  const SurfaceModel dsm = SurfaceOf(scene, -8, 6, 0.1, 160, 120);
  OrthophotoOptions options;
  options.tile_cells = 64;
  const Orthophoto ortho = RenderOrthophoto(dsm, views, Identity, options);
  int roof = 0, hidden_ground = 0;
  for (int row = 0; row < dsm.grid.height; ++row) {
    for (int col = 0; col < dsm.grid.width; ++col) {
      const Eigen::Vector2d p = dsm.grid.CellCenter(col, row);
      if (std::abs(p.y()) > 1.5) continue;
      const Eigen::Vector3f colour = CellColour(ortho, col, row);
      if (std::abs(p.x()) < 1.7) {  // the roof, where it is: red
        EXPECT_LT((colour - scene.building_colour).cwiseAbs().maxCoeff(), 8) << p.transpose();
        ++roof;
      } else if (p.x() > 2.4 && p.x() < 4.4) {  // hidden from the west camera: the ground
        EXPECT_LT((colour - SmoothTexture(p.x(), p.y())).cwiseAbs().maxCoeff(), 12) << p.transpose();
        ++hidden_ground;
      }
    }
  }
  EXPECT_GT(roof, 500);
  EXPECT_GT(hidden_ground, 300);
}

TEST(Orthophoto, BlendsTheExposureStepOfASeam) {
  TestScene scene;
  scene.ground = [](double, double) { return Eigen::Vector3f(128, 128, 128); };
  const std::vector<ViewGeometry> geometry = {NadirView({-6, 0, 30}, 320, 240, 0.1),
                                              NadirView({6, 0, 30}, 320, 240, 0.1)};
  const OrthophotoViews views = ViewsOf(scene, geometry, {0.8f, 1.2f});  // 102 and 154
  const SurfaceModel dsm = SurfaceOf(scene, -10, 5, 0.1, 200, 100);
  OrthophotoOptions options;
  options.tile_cells = 64;
  const Orthophoto ortho = RenderOrthophoto(dsm, views, Identity, options);
  const int row = 50;
  float max_step = 0;
  for (int col = 1; col < dsm.grid.width; ++col) {
    max_step = std::max(max_step, std::abs(CellColour(ortho, col, row)[0] - CellColour(ortho, col - 1, row)[0]));
  }
  // Each side keeps its own view's level away from the seam at x = 0 ...
  EXPECT_NEAR(CellColour(ortho, 10, row)[0], 102, 2);
  EXPECT_NEAR(CellColour(ortho, 190, row)[0], 154, 2);
  // ... and the 52 levels between them spread over many cells.
  EXPECT_LT(max_step, 5);
}

TEST(Orthophoto, LeavesUnknownHeightsTransparentAndIsTheSameOnAnyNumberOfThreads) {
  TestScene scene;
  scene.ground = SmoothTexture;
  scene.building_half_m = 1.5;
  scene.building_height_m = 6;
  const std::vector<ViewGeometry> geometry = {NadirView({-4, 0, 25}, 200, 160, 0.12),
                                              NadirView({4, 1, 25}, 200, 160, 0.12)};
  const OrthophotoViews views = ViewsOf(scene, geometry, {0.9f, 1.1f});
  SurfaceModel dsm = SurfaceOf(scene, -6, 4, 0.1, 120, 80);
  dsm.height_m[dsm.grid.Index(30, 40)] = SurfaceModel::kNoData;
  OrthophotoOptions options;
  options.tile_cells = 32;
  options.num_threads = 1;
  const Orthophoto one = RenderOrthophoto(dsm, views, Identity, options);
  options.num_threads = 2;
  const Orthophoto two = RenderOrthophoto(dsm, views, Identity, options);
  EXPECT_EQ(one.rgba, two.rgba);
  EXPECT_EQ(one.rgba[4 * dsm.grid.Index(30, 40) + 3], 0);
  // Elsewhere only ground beside the walls that both cameras' rays pass over is left out.
  int hidden = 0;
  for (int row = 0; row < dsm.grid.height; ++row) {
    for (int col = 0; col < dsm.grid.width; ++col) {
      if (one.rgba[4 * dsm.grid.Index(col, row) + 3] != 0 || (col == 30 && row == 40)) continue;
      const Eigen::Vector2d p = dsm.grid.CellCenter(col, row);
      EXPECT_LT(p.cwiseAbs().maxCoeff(), scene.building_half_m + 0.6) << p.transpose();
      ++hidden;
    }
  }
  EXPECT_LT(hidden, 400);
}

TEST(Orthophoto, RejectsHeightsThatDoNotMatchTheGrid) {
  SurfaceModel dsm;
  dsm.grid = GroundGrid{0, 0, 1, 10, 10};
  dsm.height_m.assign(50, 0.0f);
  OrthophotoViews views;
  views.geometry = {NadirView({0, 0, 10}, 32, 32, 1)};
  views.load = [](int) { return Image{}; };
  EXPECT_THROW(RenderOrthophoto(dsm, views, Identity, OrthophotoOptions{}), InputError);
  OrthophotoOptions options;
  options.border_fade = 0;
  dsm.height_m.assign(100, 0.0f);
  EXPECT_THROW(RenderOrthophoto(dsm, views, Identity, options), InputError);
}

}  // namespace
}  // namespace proj::mvs
