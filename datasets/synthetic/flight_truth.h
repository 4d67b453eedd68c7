// The true map products of a synthetic flight, for measuring ours (bench/products_synth_eval.py):
// the surface model (height of the first surface a vertical ray from above meets: terrain or
// roof) and the true orthophoto (the colour along that same ray; the world's shading does not
// depend on the view), on a north-up grid in the flight's ENU frame over the area the images
// cover.
#pragma once

#include <string>
#include <vector>

#include "datasets/synthetic/synthetic_flight.h"
#include "datasets/synthetic/terrain_world.h"
#include "io/float_raster_file.h"
#include "io/image.h"

namespace proj {

// Cell (col, row) covers ENU x in [west_m + col * cell_m, west_m + (col + 1) * cell_m] and y in
// [north_m - (row + 1) * cell_m, north_m - row * cell_m] (row 0 along the north edge), as the
// map products lay out their grids in easting/northing.
struct FlightTruthGrid {
  double west_m = 0;
  double north_m = 0;
  double cell_m = 0;
  int width = 0;
  int height = 0;
};

struct FlightTruth {
  FlightTruthGrid grid;
  FloatRaster heights;  // 1 channel, ENU z of the first surface from above, metres
  Image colour;         // RGB, the colour there, textures filtered over a cell
};

// The area the nadir footprints of the shots cover, in cells of `cell_m` (> 0).
FlightTruthGrid FlightTruthGridOf(const std::vector<SyntheticFlightShot>& shots, double cell_m);

// Traces one vertical ray per cell centre from `top_m` (above every surface) down; rows in
// parallel on `num_threads` (<= 0: all), the same result for any.
FlightTruth RenderFlightTruth(const synthetic::TerrainWorld& world, const FlightTruthGrid& grid, double top_m,
                              int num_threads);

// Writes, atomically, in `dir` (created):
//   dsm.bin          the heights (io/float_raster_file.h: COLMAP's .bin layout, row 0 north)
//   orthophoto.png   the colours
//   truth.json       the grid, the flight's WGS84 origin (ellipsoidal height; the ENU frame's
//                    origin), altitude_m, focal_px and the ground sample distance gsd_m
//                    (altitude / focal length, at the terrain datum z = 0)
// InputError naming the file when one cannot be written.
void WriteFlightTruth(const FlightTruth& truth, const SyntheticFlightOptions& options, const std::string& dir);

// The grid of a truth.json that WriteFlightTruth wrote; InputError naming the file when it is
// missing or not of that form.
FlightTruthGrid ReadFlightTruthGrid(const std::string& truth_json);

}  // namespace proj
