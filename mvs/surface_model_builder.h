// A digital surface model from a dense cloud (mvs/ground_grid.h's SurfaceModel): the points
// taken to the map CRS (MapProjection, UTM easting/northing/height), a north-up grid over
// the area they cover, per cell a high percentile of the heights of the points in it, then
// holes interpolated where they are small and left as nodata where they are not.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/geodesy/local_enu_frame.h"
#include "mvs/ground_grid.h"

namespace proj::mvs {

struct SurfaceModelOptions {
  double cell_m = 0;  // cell size (ground resolution), metres, > 0
  // A cell's height: this percentile of the heights of its points (nearest rank: the value
  // at index round(p / 100 * (n - 1)) of the n sorted heights). 100 is the maximum, the
  // surface's top, but then one stray point above a roof sets the cell; 90 keeps the top of
  // the surface while a cell needs more than a tenth of its points astray to be lifted.
  // Cells of one or two points take their highest.
  double cell_percentile = 90;
  // Holes (nodata cells enclosed by known ones) are interpolated when none of their cells is
  // farther than this from a known cell (so holes up to about twice as wide), by the smooth
  // membrane over their rim (Laplace's equation: planes come back exactly); larger holes,
  // and nodata reaching the grid's edge (outside the surveyed area), stay nodata. 0: none.
  double fill_limit_m = 5;
  // The grid covers the points' easting and northing range with this share of the points
  // left out at each end (stray points far outside the survey would add empty margins).
  double extent_trim_share = 0.001;

  void Check() const;  // throws InputError naming the field
};

// The largest grid built: 2^28 cells (1 GiB of heights), about 16,000 cells square.
constexpr size_t kMaxSurfaceModelCells = size_t{1} << 28;

// The map positions (easting, northing, height: MapProjection::MapFromEnu) of points of the
// frame `frame`, on `num_threads` threads (0 = all), one MapProjection each.
std::vector<Eigen::Vector3d> MapPositionsOf(const std::vector<Eigen::Vector3f>& positions_enu, const EnuFrame& frame,
                                            int num_threads);

// The grid of `cell_m` cells over the points' easting/northing range (trimmed as
// SurfaceModelOptions::extent_trim_share says), its edges on multiples of cell_m, so that
// grids of the same cell size over the same area line up cell for cell. Throws InputError
// when there are no points or the grid would exceed kMaxSurfaceModelCells.
GroundGrid GridCovering(const std::vector<Eigen::Vector3d>& positions_map, double cell_m, double trim_share);

// Per cell of `grid`, the `percentile` of the heights of the points in it (as
// SurfaceModelOptions::cell_percentile says); nodata (NaN) where none falls. Points outside
// the grid are ignored.
SurfaceModel RasterizeHeights(const std::vector<Eigen::Vector3d>& positions_map, const GroundGrid& grid,
                              double percentile);

// Interpolates the holes of `model` as SurfaceModelOptions::fill_limit_m says, with the
// limit in cells (chessboard distance: diagonal steps count one). Returns the number of
// cells filled.
size_t FillHoles(double fill_limit_cells, SurfaceModel* model);

// GridCovering, RasterizeHeights and FillHoles with `options`.
SurfaceModel BuildSurfaceModel(const std::vector<Eigen::Vector3d>& positions_map, const SurfaceModelOptions& options);

}  // namespace proj::mvs
