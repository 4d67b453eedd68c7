// The dense stage's summary as JSON: the "dense" object of report.json (sfm/outputs), and
// OUT/dense/report.json of `sfm dense`:
//   {"workspace": "OUT/dense", "device": "cpu", "max_image_size_px": 2000, "images": 11,
//    "images_undistorted": 11, "images_undistort_reused": 0, "depth_maps_computed": 11,
//    "depth_maps_reused": 0, "gpu_failures": 0, "seconds_per_depth_map_median": 0.8,
//    "depth_map_seconds_total": 9.1, "points": 0,
//    "stage_seconds": {"undistort": 1.2, "depth_maps": 9.9, "fusion": 0, "total": 11.2},
//    "skipped_images": [{"name": "0004.jpg", "reason": "..."}]}
#pragma once

#include <ostream>
#include <string>

#include "mvs/dense_summary.h"

namespace proj::mvs {

// The object, its lines after the first indented by `indent` (no trailing newline).
void WriteDenseSummaryJson(const DenseSummary& summary, const std::string& indent, std::ostream& out);

// The object alone as a file, atomically; InputError naming the file when it cannot.
void WriteDenseReport(const DenseSummary& summary, const std::string& path);

}  // namespace proj::mvs
