// report.html: the run's report as a page that opens offline in any browser, beside
// report.json. It shows the numbers of report.json (counts, stage times, skipped files with
// their reasons), a table of the images (registered or not, observations, mean reprojection
// error), a picture of the model (sfm/render, PNG as a data URI) and an interactive 3D view
// of the points and cameras (three.js compiled into the program, report_assets.h; without
// it the page says that the 3D view is missing).
#pragma once

#include <string>

#include "sfm/outputs/run_description.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

struct HtmlReportOptions {
  // The 3D view keeps every k-th point so that at most this many reach the page.
  int max_view_points = 200000;
  int picture_width_px = 1200;
  int picture_height_px = 800;

  void Check() const;  // throws InputError naming the field
};

// Writes the page atomically; throws InputError naming `path` when it cannot be written.
void WriteHtmlReport(const ReconstructionResult& result, const RunDescription& run,
                     const std::string& path, const HtmlReportOptions& options = {});

}  // namespace proj
