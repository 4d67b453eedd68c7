#include "mvs/map_products.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "geometry/geodesy/map_projection.h"
#include "io/geotiff_file.h"
#include "mvs/dense_workspace.h"
#include "mvs/ground_sample_distance.h"
#include "sfm/reconstruction_io/colmap_model.h"

namespace proj::mvs {
namespace {

// Through text, so that 0.94 comes back as the double nearest 0.94 (as a user would type it).
double RoundToTwoDigits(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2g", value);
  return std::strtod(text, nullptr);
}

std::string PathIn(const std::string& dir, const char* name) { return (std::filesystem::path(dir) / name).string(); }

}  // namespace

void MapProductsOptions::Check() const {
  PROJ_REQUIRE(resolution_m >= 0 && std::isfinite(resolution_m),
               "--dsm-resolution-m must be >= 0 (0: automatic), not " << resolution_m);
  PROJ_REQUIRE(gsd_factor > 0, "MapProductsOptions.gsd_factor must be > 0");
  PROJ_REQUIRE(fill_limit_m >= 0 && std::isfinite(fill_limit_m), "--dsm-fill-limit-m must be >= 0, not " << fill_limit_m);
  PROJ_REQUIRE(cell_percentile >= 0 && cell_percentile <= 100,
               "--dsm-cell-percentile must be in [0, 100], not " << cell_percentile);
  PROJ_REQUIRE(preview_max_side_px >= 16, "MapProductsOptions.preview_max_side_px must be >= 16");
}

double SurfaceModelCellSize(const Scene& scene, int max_image_size_px, const MapProductsOptions& options,
                            double* ground_sample_distance_m) {
  const std::optional<double> gsd = GroundSampleDistance(scene, max_image_size_px);
  *ground_sample_distance_m = gsd.value_or(0);
  if (options.resolution_m > 0) return options.resolution_m;
  PROJ_REQUIRE(gsd && *gsd > 0, "the ground sample distance cannot be derived (no registered image sees a "
                                "sparse point): give the surface model's cell size with --dsm-resolution-m");
  return RoundToTwoDigits(options.gsd_factor * *gsd);
}

MapProductsSummary MakeMapProducts(const Scene& scene, const DenseCloud& cloud, const EnuFrame& frame,
                                   int max_image_size_px, const std::string& dense_root,
                                   const std::string& out_dir, const MapProductsOptions& options) {
  options.Check();
  if (options.orthophoto) options.orthophoto_options.Check();
  PROJ_REQUIRE(cloud.size() > 0, "the dense cloud has no point: no surface model can be made of it");
  Timer timer;
  MapProductsSummary summary;
  SurfaceModelOptions surface;
  surface.cell_m = SurfaceModelCellSize(scene, max_image_size_px, options, &summary.ground_sample_distance_m);
  surface.fill_limit_m = options.fill_limit_m;
  surface.cell_percentile = options.cell_percentile;
  const MapProjection projection(frame, /*warn=*/false);  // MapPositionsOf warns
  PROJ_LOG(kInfo, "surface model: " << cloud.size() << " points to " << projection.CrsName() << ", "
                                    << surface.cell_m << " m cells (ground sample distance "
                                    << summary.ground_sample_distance_m << " m)");
  const std::vector<Eigen::Vector3d> positions_map = MapPositionsOf(cloud.positions, frame, options.num_threads);
  const GroundGrid grid = GridCovering(positions_map, surface.cell_m, surface.extent_trim_share);
  SurfaceModel model = RasterizeHeights(positions_map, grid, surface.cell_percentile);
  const auto count_known = [&] {
    return std::count_if(model.height_m.begin(), model.height_m.end(), [](float h) { return std::isfinite(h); });
  };
  summary.num_cells_known = count_known();
  summary.num_cells_filled = static_cast<long long>(FillHoles(surface.fill_limit_m / surface.cell_m, &model));
  const long long known_after = count_known();

  summary.dsm_path = PathIn(out_dir, "dsm.tif");
  summary.grid = grid;
  summary.crs_code = projection.CrsCode();
  summary.crs_name = projection.CrsName();
  summary.vertical_datum = VerticalDatumName(projection.heights());
  summary.num_points = static_cast<long long>(cloud.size());
  summary.nodata_share = 1 - static_cast<double>(known_after) / static_cast<double>(grid.NumCells());
  summary.height_min_m = std::numeric_limits<double>::infinity();
  summary.height_max_m = -std::numeric_limits<double>::infinity();
  for (const float h : model.height_m) {
    if (!std::isfinite(h)) continue;
    summary.height_min_m = std::min<double>(summary.height_min_m, h);
    summary.height_max_m = std::max<double>(summary.height_max_m, h);
  }
  if (known_after == 0) summary.height_min_m = summary.height_max_m = 0;
  WriteFloatGeoTiff(summary.dsm_path, grid.width, grid.height, model.height_m, grid.GdalGeoTransform(),
                    summary.crs_code);
  summary.preview = PreviewOfSurfaceModel(model, options.preview_max_side_px);
  PROJ_LOG(kInfo, "surface model: " << summary.dsm_path << ", " << grid.width << " x " << grid.height << " cells of "
                                    << grid.cell_m << " m, " << summary.num_cells_filled << " cells filled, "
                                    << 100 * summary.nodata_share << "% nodata");
  if (options.orthophoto) {
    const Timer ortho_timer;
    const DenseWorkspace workspace(dense_root);
    const OrthophotoViews views = OrthophotoViewsOf(ReadColmapModel(workspace.SparseDir()), workspace.ImagesDir());
    OrthophotoOptions ortho_options = options.orthophoto_options;
    if (ortho_options.num_threads <= 0) ortho_options.num_threads = options.num_threads;
    const Orthophoto ortho = RenderOrthophoto(
        model, views, [&](const Eigen::Vector3d& map) { return projection.EnuFromMap(map); }, ortho_options);
    WriteOrthophotoGeoTiff(ortho.rgba, out_dir, &summary, options.preview_max_side_px);
    summary.orthophoto_cells_coloured = static_cast<long long>(ortho.NumColoured());
    summary.orthophoto_seconds = ortho_timer.ElapsedSeconds();
    PROJ_LOG(kInfo, "orthophoto: " << summary.orthophoto_path << ", " << summary.orthophoto_cells_coloured
                                   << " of " << grid.NumCells() << " cells coloured, " << summary.orthophoto_seconds
                                   << " s");
  }
  summary.seconds = timer.ElapsedSeconds();
  return summary;
}

void WriteOrthophotoGeoTiff(const std::vector<uint8_t>& rgba, const std::string& out_dir,
                            MapProductsSummary* summary, int preview_max_side_px) {
  summary->orthophoto_path = PathIn(out_dir, "orthophoto.tif");
  WriteRgbaGeoTiff(summary->orthophoto_path, summary->grid.width, summary->grid.height, rgba,
                   summary->grid.GdalGeoTransform(), summary->crs_code);
  summary->preview = PreviewOfRgba(summary->grid, rgba, preview_max_side_px);
}

}  // namespace proj::mvs
