// The grid of the map products (the digital surface model and the orthophoto): north-up square
// cells of `cell_m` metres in the model's map CRS (geometry/geodesy/map_projection.h: UTM
// easting/northing), row 0 along the north edge, as GeoTIFFs lay rasters out. Cell (col, row)
// covers easting [west_m + col * cell_m, west_m + (col + 1) * cell_m] and northing
// [north_m - (row + 1) * cell_m, north_m - row * cell_m]; GDAL's geotransform of the grid is
// {west_m, cell_m, 0, north_m, 0, -cell_m}.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <Eigen/Core>

namespace proj::mvs {

struct GroundGrid {
  double west_m = 0;   // easting of the west edge
  double north_m = 0;  // northing of the north edge
  double cell_m = 0;   // > 0
  int width = 0;       // columns (west to east)
  int height = 0;      // rows (north to south)

  size_t NumCells() const { return static_cast<size_t>(width) * static_cast<size_t>(height); }
  size_t Index(int col, int row) const {
    return static_cast<size_t>(row) * static_cast<size_t>(width) + static_cast<size_t>(col);
  }
  // (easting, northing) of a cell's centre.
  Eigen::Vector2d CellCenter(int col, int row) const {
    return {west_m + (col + 0.5) * cell_m, north_m - (row + 0.5) * cell_m};
  }
  // The cell holding a map position; false when it lies outside the grid.
  bool CellOf(const Eigen::Vector2d& easting_northing, int* col, int* row) const {
    const double c = std::floor((easting_northing.x() - west_m) / cell_m);
    const double r = std::floor((north_m - easting_northing.y()) / cell_m);
    if (!(c >= 0 && c < width && r >= 0 && r < height)) return false;
    *col = static_cast<int>(c);
    *row = static_cast<int>(r);
    return true;
  }
  std::array<double, 6> GdalGeoTransform() const { return {west_m, cell_m, 0, north_m, 0, -cell_m}; }
};

// A digital surface model: the height of the highest surface (ground, roofs, trees) in each
// cell, in the map CRS's vertical datum (MapProjection::heights()).
struct SurfaceModel {
  static constexpr float kNoData = std::numeric_limits<float>::quiet_NaN();

  GroundGrid grid;
  std::vector<float> height_m;  // grid.NumCells(), row-major; kNoData (NaN) where unknown

  float At(int col, int row) const { return height_m[grid.Index(col, row)]; }
  bool Known(int col, int row) const { return std::isfinite(At(col, row)); }
};

}  // namespace proj::mvs
