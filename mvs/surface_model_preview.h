// Small north-up pictures of the map products for report.html: the surface model as
// colour-coded heights under a hillshade, or an RGBA orthophoto over white.
#pragma once

#include <cstdint>
#include <vector>

#include "io/image.h"
#include "mvs/ground_grid.h"

namespace proj::mvs {

// A picture of a raster: RGB8, its long side at most `max_side_px` (each picture pixel the
// cell at its centre), and the ground it covers per picture pixel.
struct MapPreview {
  Image image;
  double metres_per_px = 0;
};

// Heights coloured from blue-green (low, the 2nd percentile) through yellow to brown and
// white (high, the 98th), shaded by a light from the north-west 45 degrees up; nodata white.
MapPreview PreviewOfSurfaceModel(const SurfaceModel& model, int max_side_px);

// An RGBA raster of `grid`'s size (pixel-interleaved), over white where alpha is below 255.
MapPreview PreviewOfRgba(const GroundGrid& grid, const std::vector<uint8_t>& rgba, int max_side_px);

}  // namespace proj::mvs
