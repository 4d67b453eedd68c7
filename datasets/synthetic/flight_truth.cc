#include "datasets/synthetic/flight_truth.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>

#include <Eigen/LU>

#include "core/check.h"
#include "core/parallel_for.h"
#include "io/atomic_file.h"
#include "io/image_encode.h"
#include "io/json_cursor.h"

namespace proj {

FlightTruthGrid FlightTruthGridOf(const std::vector<SyntheticFlightShot>& shots, double cell_m) {
  PROJ_CHECK(!shots.empty() && cell_m > 0, "a flight truth grid needs shots and a cell size");
  Eigen::Vector2d low = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector2d high = -low;
  for (const SyntheticFlightShot& shot : shots) {
    const StrechaCamera& camera = shot.camera;
    // Where the image corners' rays meet the datum z = 0.
    for (double u : {0.0, static_cast<double>(camera.width)}) {
      for (double v : {0.0, static_cast<double>(camera.height)}) {
        const Eigen::Vector3d ray = camera.R * camera.K.inverse() * Eigen::Vector3d(u, v, 1);
        if (!(ray.z() < 0)) continue;
        const Eigen::Vector2d ground = (camera.C - camera.C.z() / ray.z() * ray).head<2>();
        low = low.cwiseMin(ground);
        high = high.cwiseMax(ground);
      }
    }
  }
  FlightTruthGrid grid;
  grid.cell_m = cell_m;
  grid.west_m = std::floor(low.x() / cell_m) * cell_m;
  grid.north_m = std::ceil(high.y() / cell_m) * cell_m;
  grid.width = static_cast<int>(std::ceil((high.x() - grid.west_m) / cell_m));
  grid.height = static_cast<int>(std::ceil((grid.north_m - low.y()) / cell_m));
  return grid;
}

FlightTruth RenderFlightTruth(const synthetic::TerrainWorld& world, const FlightTruthGrid& grid, double top_m,
                              int num_threads) {
  FlightTruth truth{grid, FloatRaster(grid.width, grid.height, 1), Image{grid.width, grid.height, 3, {}}};
  truth.colour.data.resize(static_cast<size_t>(grid.width) * grid.height * 3);
  const Eigen::Vector3d down(0, 0, -1);
  ParallelFor(0, grid.height, num_threads, [&](int row, int) {
    for (int col = 0; col < grid.width; ++col) {
      const Eigen::Vector3d origin(grid.west_m + (col + 0.5) * grid.cell_m,
                                   grid.north_m - (row + 0.5) * grid.cell_m, top_m);
      const double t = world.HitDistance(origin, down);
      truth.heights.At(col, row) = std::isfinite(t) ? static_cast<float>(top_m - t)
                                                    : std::numeric_limits<float>::quiet_NaN();
      // Textures filtered over one cell at the surface.
      const std::array<float, 3> colour = world.Trace(origin, down, std::isfinite(t) ? grid.cell_m / t : 0);
      uint8_t* out = &truth.colour.data[(static_cast<size_t>(row) * grid.width + col) * 3];
      for (int c = 0; c < 3; ++c) out[c] = static_cast<uint8_t>(std::clamp(colour[c] + 0.5f, 0.0f, 255.0f));
    }
  });
  return truth;
}

void WriteFlightTruth(const FlightTruth& truth, const SyntheticFlightOptions& options, const std::string& dir) {
  namespace fs = std::filesystem;
  EnsureWritableDirectory(dir);
  WriteFloatRasterFile((fs::path(dir) / "dsm.bin").string(), truth.heights);
  WritePng((fs::path(dir) / "orthophoto.png").string(), truth.colour);
  const FlightTruthGrid& grid = truth.grid;
  WriteFileAtomically((fs::path(dir) / "truth.json").string(), [&](std::ostream& out) {
    out << std::setprecision(15) << "{\n"
        << "  \"frame\": \"ENU of origin_wgs84: x east, y north, z up, metres\",\n"
        << "  \"origin_wgs84\": {\"latitude_deg\": " << options.origin.ref_latitude_deg
        << ", \"longitude_deg\": " << options.origin.ref_longitude_deg
        << ", \"altitude_m\": " << options.origin.ref_altitude_m << ", \"height_datum\": \"ellipsoid\"},\n"
        << "  \"grid\": {\"west_m\": " << grid.west_m << ", \"north_m\": " << grid.north_m
        << ", \"cell_m\": " << grid.cell_m << ", \"width\": " << grid.width << ", \"height\": " << grid.height
        << "},\n"
        << "  \"dsm\": \"dsm.bin\",\n"
        << "  \"orthophoto\": \"orthophoto.png\",\n"
        << "  \"altitude_m\": " << options.altitude_m << ",\n"
        << "  \"focal_px\": " << options.focal_px << ",\n"
        << "  \"gsd_m\": " << options.altitude_m / options.focal_px << "\n"
        << "}\n";
  });
}

FlightTruthGrid ReadFlightTruthGrid(const std::string& truth_json) {
  JsonCursor cursor = JsonCursor::FromFile(truth_json, "a synthetic flight's truth.json");
  FlightTruthGrid grid;
  bool found = false;
  cursor.Expect('{');
  do {
    if (cursor.String() != "grid") {
      cursor.Expect(':');
      cursor.SkipValue();
      continue;
    }
    cursor.Expect(':');
    cursor.Expect('{');
    do {
      const std::string key = cursor.String();
      cursor.Expect(':');
      const double value = cursor.Number();
      if (key == "west_m") grid.west_m = value;
      if (key == "north_m") grid.north_m = value;
      if (key == "cell_m") grid.cell_m = value;
      if (key == "width") grid.width = static_cast<int>(value);
      if (key == "height") grid.height = static_cast<int>(value);
    } while (cursor.Accept(','));
    cursor.Expect('}');
    found = true;
  } while (cursor.Accept(','));
  cursor.Expect('}');
  if (!found || !(grid.cell_m > 0) || grid.width <= 0 || grid.height <= 0) cursor.Fail("no valid \"grid\" object");
  return grid;
}

}  // namespace proj
