// The map products of a georeferenced model (issue 25), written next to its other outputs:
//   OUT/dsm.tif          the digital surface model (mvs/surface_model_builder.h) of the dense
//                        cloud: float32 heights, nodata NaN, a Cloud-Optimized GeoTIFF in the
//                        model's UTM zone with heights in the photos' vertical datum
//                        (geometry/geodesy/map_projection.h)
//   OUT/orthophoto.tif   the true orthophoto on the same grid (mvs/orthophoto.h), coloured from
//                        the dense workspace's undistorted images: RGBA, a COG
// and a small picture of them for report.html.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "geometry/geodesy/local_enu_frame.h"
#include "mvs/dense_cloud.h"
#include "mvs/ground_grid.h"
#include "mvs/orthophoto.h"
#include "mvs/surface_model_builder.h"
#include "mvs/surface_model_preview.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct MapProductsOptions {
  // The surface model's cell size, metres; 0: twice the survey's ground sample distance
  // (mvs/ground_sample_distance.h) at the size the depth maps were computed at. A depth map
  // gives about one point per pixel, but only where stereo matched, and fusion merges
  // neighbours: at one GSD many cells would get no point or a single one; at two each cell
  // gathers about four pixels' points, enough for a robust percentile and few holes, while
  // keeping the detail the depth maps hold (their PatchMatch windows smooth over several
  // pixels anyway).
  double resolution_m = 0;
  double gsd_factor = 2;  // the multiple of the GSD used when resolution_m is 0
  double fill_limit_m = 5;      // SurfaceModelOptions::fill_limit_m
  double cell_percentile = 90;  // SurfaceModelOptions::cell_percentile
  bool orthophoto = true;         // also OUT/orthophoto.tif
  OrthophotoOptions orthophoto_options;
  int preview_max_side_px = 800;  // report.html's picture
  int num_threads = 0;            // 0 = all cores

  void Check() const;  // throws InputError naming the option
};

// What MakeMapProducts did: report.json's "products" object (sfm/outputs/report_json.h).
struct MapProductsSummary {
  std::string dsm_path;
  std::string orthophoto_path;  // empty while no orthophoto was written
  GroundGrid grid;
  double ground_sample_distance_m = 0;  // 0 when it could not be derived
  std::string crs_code;   // "EPSG:32615+5773"
  std::string crs_name;   // "WGS 84 / UTM zone 15N + EGM96 height"
  std::string vertical_datum;  // VerticalDatumName of the heights
  long long num_points = 0;     // of the dense cloud
  long long num_cells_known = 0;   // with a height from points
  long long num_cells_filled = 0;  // interpolated (holes within the fill limit)
  double nodata_share = 0;      // of the grid's cells, after filling
  double height_min_m = 0, height_max_m = 0;
  MapPreview preview;  // the orthophoto when there is one, else the surface model
  long long orthophoto_cells_coloured = 0;
  double orthophoto_seconds = 0;
  double seconds = 0;  // both products
};

// The cell size MakeMapProducts uses: options.resolution_m, or gsd_factor times the GSD of
// `scene` at `max_image_size_px` (rounded to 2 significant digits, so grids of reruns line
// up). Throws InputError when it is 0 and the GSD cannot be derived (no point seen).
double SurfaceModelCellSize(const Scene& scene, int max_image_size_px, const MapProductsOptions& options,
                            double* ground_sample_distance_m);

// Builds the surface model of `cloud` (positions in the frame `frame`) and writes
// OUT_DIR/dsm.tif, then (options.orthophoto) renders the orthophoto on it from the dense
// workspace `dense_root`'s undistorted model and images and writes OUT_DIR/orthophoto.tif;
// `scene` is the sparse model (its GSD), `max_image_size_px` the dense stage's. Throws
// InputError for bad options, an empty cloud, a grid over the size limit or a file that cannot
// be read or written (naming it).
MapProductsSummary MakeMapProducts(const Scene& scene, const DenseCloud& cloud, const EnuFrame& frame,
                                   int max_image_size_px, const std::string& dense_root,
                                   const std::string& out_dir, const MapProductsOptions& options);

// OUT_DIR/orthophoto.tif: an RGBA raster of `grid`'s size (pixel-interleaved, alpha 0 where
// nothing was seen), a COG in `crs_code`; sets summary->orthophoto_path and makes it the
// preview. For the orthophoto renderer's output, on the surface model's grid.
void WriteOrthophotoGeoTiff(const std::vector<uint8_t>& rgba, const std::string& out_dir,
                            MapProductsSummary* summary, int preview_max_side_px = 800);

}  // namespace proj::mvs
