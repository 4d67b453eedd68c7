// report.html: the run's report as a page that opens offline in any browser, beside
// report.json. It shows the numbers of report.json (counts, stage times, skipped files with
// their reasons), a table of the images (registered or not, observations, mean reprojection
// error), a picture of the model (sfm/render, PNG as a data URI) and an interactive 3D view
// of the points and cameras (three.js compiled into the program, report_assets.h; without
// it the page says that the 3D view is missing). After the dense stage the 3D view also
// holds the dense cloud, every k-th point up to a cap, in the frame of the sparse points and
// cameras, with a switch between the dense and the sparse points. After the map products, a
// north-up picture of them with a scale bar and their grid and CRS.
#pragma once

#include <string>

#include "mvs/dense_cloud.h"
#include "mvs/dense_summary.h"
#include "mvs/map_products.h"
#include "sfm/outputs/run_description.h"
#include "sfm/scene/scene.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

struct HtmlReportOptions {
  // The 3D view keeps every k-th point so that at most this many reach the page.
  int max_view_points = 200000;
  // The same for the dense cloud: 20 bytes of the page per point (float32 x, y, z and
  // r, g, b in base64), so 500,000 points add 10 MB; with three.js and 200,000 sparse
  // points the page stays under 16 MB.
  int max_dense_view_points = 500000;
  int picture_width_px = 1200;
  int picture_height_px = 800;

  void Check() const;  // throws InputError naming the field
};

// Writes the page atomically; throws InputError naming `path` when it cannot be written.
// `dense_cloud`: the fused cloud of the dense stage (result.dense), or null; an empty or
// absent cloud gives the page of the sparse model alone (and, when result.dense is set, the
// dense stage's numbers).
void WriteHtmlReport(const ReconstructionResult& result, const RunDescription& run,
                     const std::string& path, const HtmlReportOptions& options = {},
                     const mvs::DenseCloud* dense_cloud = nullptr);

// The page of `sfm dense MODEL_DIR`: the model's images, sparse points and cameras, the
// dense stage's numbers and its cloud (which may be empty). `run.images_dir` names the model.
void WriteDenseHtmlReport(const Scene& scene, const mvs::DenseSummary& dense,
                          const mvs::DenseCloud& dense_cloud, const RunDescription& run,
                          const std::string& path, const HtmlReportOptions& options = {});

// The page of `sfm products OUT`: OUT/products.html with the model's images, sparse points
// and cameras and the map products' section (also in report.html after --products).
void WriteProductsHtmlReport(const Scene& scene, const mvs::MapProductsSummary& products, const RunDescription& run,
                             const std::string& path, const HtmlReportOptions& options = {});

}  // namespace proj
