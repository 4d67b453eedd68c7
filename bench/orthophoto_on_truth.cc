// The orthophoto alone, measured on a synthetic flight (issue 25; bench/products_synth.sh):
// RenderOrthophoto (mvs/orthophoto.h) on a reconstructed model's undistorted images, with the
// flight's TRUE surface model as the surface, so that what bench/products_synth_eval.py then
// measures is the orthophoto's own position error, not the surface model's.
//
//   orthophoto_on_truth (--model DENSE/sparse --images DENSE/images | --true-cameras)
//       --flight FLIGHT [--cell-m M] [--threads N] -o DIR
//
// The model's cameras are put in the flight's true ENU frame by the similarity that aligns
// their centres to the true ones (sfm evaluate's), so the model's georeferencing error (GPS:
// a shift, and a tilt a shift cannot remove) does not count; what remains is the model's own
// error and the orthophoto's. --true-cameras: the flight's own images and true cameras
// (FLIGHT/gt_dense_cameras) instead of a model: the orthophoto's rendering alone, without the
// model's errors (e.g. its focal length, which nadir flights over flat ground pin down
// poorly). The true surface (FLIGHT/truth, `sfm synth --flight --truth-rasters`) goes onto a
// grid of --cell-m (default: the truth's cell) in the flight origin's UTM zone, ellipsoidal
// heights. Writes DIR/dsm.bin (1 channel, heights, NaN where unknown), DIR/orthophoto.bin (4
// channels: R, G, B, A in 0..255) in io/float_raster_file.h's layout (row 0 north) and
// DIR/grid.json (the grid and the CRS code); bench/rasters_to_geotiff.py turns them into the
// GeoTIFFs the products stage writes. Prints the rendering time per million cells.
#include <CLI/CLI.hpp>

#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include "bench/dense_eval.h"
#include "core/check.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "datasets/synthetic/flight_truth.h"
#include "geometry/geodesy/map_projection.h"
#include "io/atomic_file.h"
#include "io/float_raster_file.h"
#include "io/image_decode.h"
#include "io/strecha_camera.h"
#include "mvs/orthophoto.h"
#include "mvs/scene_views.h"
#include "sfm/reconstruction_io/colmap_model.h"

namespace proj {
namespace {

// The true surface, resampled (nearest cell: roof edges stay sharp) onto a map grid of the
// truth's area.
mvs::SurfaceModel TrueSurfaceOnMapGrid(const FlightTruthGrid& truth_grid, const FloatRaster& truth_heights,
                                       const EnuFrame& frame, double cell_m, int num_threads) {
  MapProjection projection(frame);
  Eigen::Vector2d low = Eigen::Vector2d::Constant(1e300), high = -low;
  for (double x : {truth_grid.west_m, truth_grid.west_m + truth_grid.width * truth_grid.cell_m}) {
    for (double y : {truth_grid.north_m, truth_grid.north_m - truth_grid.height * truth_grid.cell_m}) {
      const Eigen::Vector3d map = projection.MapFromEnu(Eigen::Vector3d(x, y, 0));
      low = low.cwiseMin(map.head<2>());
      high = high.cwiseMax(map.head<2>());
    }
  }
  mvs::SurfaceModel dsm;
  mvs::GroundGrid& grid = dsm.grid;
  grid.cell_m = cell_m;
  grid.west_m = std::ceil(low.x() / cell_m) * cell_m;
  grid.north_m = std::floor(high.y() / cell_m) * cell_m;
  grid.width = static_cast<int>((std::floor(high.x() / cell_m) * cell_m - grid.west_m) / cell_m);
  grid.height = static_cast<int>((grid.north_m - std::ceil(low.y() / cell_m) * cell_m) / cell_m);
  dsm.height_m.assign(grid.NumCells(), mvs::SurfaceModel::kNoData);
  const int threads = ResolveNumThreads(num_threads);
  std::vector<std::unique_ptr<MapProjection>> projections;
  for (int i = 0; i < threads; ++i) projections.push_back(std::make_unique<MapProjection>(frame, false));
  ParallelFor(0, grid.height, threads, [&](int row, int worker) {
    const MapProjection& map = *projections[worker];
    double height_m = 0;
    for (int col = 0; col < grid.width; ++col) {
      const Eigen::Vector2d en = grid.CellCenter(col, row);
      bool known = false;
      for (int iteration = 0; iteration < 3; ++iteration) {  // the height moves the point a little
        const Eigen::Vector3d enu = map.EnuFromMap({en.x(), en.y(), height_m});
        const int truth_col = static_cast<int>(std::floor((enu.x() - truth_grid.west_m) / truth_grid.cell_m));
        const int truth_row = static_cast<int>(std::floor((truth_grid.north_m - enu.y()) / truth_grid.cell_m));
        known = truth_col >= 0 && truth_col < truth_grid.width && truth_row >= 0 && truth_row < truth_grid.height &&
                std::isfinite(truth_heights.At(truth_col, truth_row));
        if (!known) break;
        height_m = map.MapFromEnu({enu.x(), enu.y(), truth_heights.At(truth_col, truth_row)}).z();
      }
      if (known) dsm.height_m[grid.Index(col, row)] = static_cast<float>(height_m);
    }
  });
  return dsm;
}

// The flight's world frame: FLIGHT/gt_enu_origin.txt, "latitude longitude altitude" (ellipsoidal).
EnuFrame ReadFlightOrigin(const std::string& path) {
  std::ifstream in(path);
  EnuFrame frame;
  PROJ_REQUIRE(in >> frame.ref_latitude_deg >> frame.ref_longitude_deg >> frame.ref_altitude_m,
               "'" << path << "' does not hold 'latitude longitude altitude'");
  return frame;
}

// A view seen from the truth's frame: x_cam = R (s R_s x + t_s) + t, divided by s (the same
// pixels, depths in true metres).
mvs::ViewGeometry InTruthFrame(const mvs::ViewGeometry& view, const Sim3d& model_from_true) {
  mvs::ViewGeometry moved = view;
  moved.rotation = view.rotation * model_from_true.rotation.toRotationMatrix();
  moved.translation = (view.rotation * model_from_true.translation + view.translation) / model_from_true.scale;
  return moved;
}

mvs::OrthophotoViews ModelViewsInTruthFrame(const std::string& model_dir, const std::string& images_dir,
                                            const std::string& flight_dir) {
  mvs::OrthophotoViews views = mvs::OrthophotoViewsOf(ReadColmapModel(model_dir), images_dir);
  const AlignedModel aligned = AlignModelToTruth(model_dir, flight_dir + "/gt_dense_cameras");
  const Sim3d model_from_true = aligned.evaluation.true_from_model.Inverse();
  for (mvs::ViewGeometry& view : views.geometry) view = InTruthFrame(view, model_from_true);
  return views;
}

mvs::OrthophotoViews TrueViews(const std::string& flight_dir) {
  mvs::OrthophotoViews views;
  std::vector<std::string> paths;
  for (const auto& [name, path] : ListFilesWithSuffix(flight_dir + "/gt_dense_cameras", ".camera")) {
    views.geometry.push_back(mvs::PinholeViewGeometry(ReadStrechaCamera(path)));
    paths.push_back(flight_dir + "/images/" + name);
  }
  views.load = [paths](int view) { return ReadImageFile(paths.at(view)); };
  return views;
}

int Run(int argc, char** argv) {
  CLI::App app{"The orthophoto of a reconstructed synthetic flight on its true surface model"};
  std::string model_dir, images_dir, flight_dir, out_dir;
  bool true_cameras = false;
  double cell_m = 0;
  mvs::OrthophotoOptions options;
  auto* model = app.add_option("--model", model_dir, "PINHOLE model (sfm undistort's DIR/sparse)");
  app.add_option("--images", images_dir, "Its undistorted images (DIR/images)")->needs(model);
  app.add_flag("--true-cameras", true_cameras, "The flight's images and true cameras instead")->excludes(model);
  app.add_option("--flight", flight_dir, "The flight (sfm synth --flight --truth-rasters)")->required();
  app.add_option("--cell-m", cell_m, "Cell size, m (0: the truth's)")->capture_default_str();
  app.add_option("--threads", options.num_threads, "Threads (0: all)")->capture_default_str();
  app.add_option("-o", out_dir, "Output folder")->required();
  CLI11_PARSE(app, argc, argv);

  PROJ_REQUIRE(true_cameras || (!model_dir.empty() && !images_dir.empty()),
               "give --model and --images, or --true-cameras");
  const EnuFrame frame = ReadFlightOrigin(flight_dir + "/gt_enu_origin.txt");
  const FlightTruthGrid truth_grid = ReadFlightTruthGrid(flight_dir + "/truth/truth.json");
  const FloatRaster truth_heights = ReadFloatRasterFile(flight_dir + "/truth/dsm.bin", 1);
  PROJ_REQUIRE(truth_heights.width == truth_grid.width && truth_heights.height == truth_grid.height,
               "'" << flight_dir << "/truth/dsm.bin' is not of truth.json's grid");
  if (cell_m <= 0) cell_m = truth_grid.cell_m;
  const mvs::SurfaceModel dsm = TrueSurfaceOnMapGrid(truth_grid, truth_heights, frame, cell_m, options.num_threads);
  const mvs::OrthophotoViews views =
      true_cameras ? TrueViews(flight_dir) : ModelViewsInTruthFrame(model_dir, images_dir, flight_dir);
  const MapProjection projection(frame);
  Timer timer;
  const std::clock_t cpu_start = std::clock();  // CPU time of all threads: what a loaded machine does not skew
  const mvs::Orthophoto ortho = mvs::RenderOrthophoto(
      dsm, views, [&](const Eigen::Vector3d& map) { return projection.EnuFromMap(map); }, options);
  const double seconds = timer.ElapsedSeconds();
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;

  EnsureWritableDirectory(out_dir);
  const mvs::GroundGrid& grid = dsm.grid;
  FloatRaster heights(grid.width, grid.height, 1), rgba(grid.width, grid.height, 4);
  for (int row = 0; row < grid.height; ++row) {
    for (int col = 0; col < grid.width; ++col) {
      heights.At(col, row) = dsm.At(col, row);
      for (int c = 0; c < 4; ++c) rgba.At(col, row, c) = ortho.rgba[4 * grid.Index(col, row) + c];
    }
  }
  WriteFloatRasterFile(out_dir + "/dsm.bin", heights);
  WriteFloatRasterFile(out_dir + "/orthophoto.bin", rgba);
  WriteFileAtomically(out_dir + "/grid.json", [&](std::ostream& out) {
    out << std::setprecision(15) << "{\"west_m\": " << grid.west_m << ", \"north_m\": " << grid.north_m
        << ", \"cell_m\": " << grid.cell_m << ", \"width\": " << grid.width << ", \"height\": " << grid.height
        << ", \"crs\": \"" << projection.CrsCode() << "\"}\n";
  });
  std::cout << "orthophoto on the true surface: " << grid.width << "x" << grid.height << " cells of " << cell_m
            << " m, " << ortho.NumColoured() << " coloured, from " << views.geometry.size() << " views in "
            << seconds << " s (" << seconds / (grid.NumCells() * 1e-6) << " s per million cells, "
            << ResolveNumThreads(options.num_threads) << " threads; CPU " << cpu_seconds / (grid.NumCells() * 1e-6)
            << " s per million cells)" << std::endl;
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  try {
    return proj::Run(argc, argv);
  } catch (const proj::InputError& error) {
    std::cerr << "error: " << error.what() << std::endl;
    return 2;
  }
}
