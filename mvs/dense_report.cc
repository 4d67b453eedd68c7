#include "mvs/dense_report.h"

#include <iomanip>

#include "io/atomic_file.h"
#include "io/json_string.h"

namespace proj::mvs {

void WriteDenseSummaryJson(const DenseSummary& summary, const std::string& indent, std::ostream& out) {
  const std::string inner = indent + "  ";
  out << std::setprecision(6) << "{\n";
  out << inner << "\"workspace\": " << JsonString(summary.workspace) << ",\n";
  out << inner << "\"device\": " << JsonString(summary.device) << ",\n";
  out << inner << "\"max_image_size_px\": " << summary.max_image_size_px << ",\n";
  out << inner << "\"images\": " << summary.num_images << ",\n";
  out << inner << "\"images_undistorted\": " << summary.num_images_undistorted << ",\n";
  out << inner << "\"images_undistort_reused\": " << summary.num_images_undistort_reused << ",\n";
  out << inner << "\"depth_maps_computed\": " << summary.num_depth_maps_computed << ",\n";
  out << inner << "\"depth_maps_reused\": " << summary.num_depth_maps_reused << ",\n";
  out << inner << "\"gpu_failures\": " << summary.num_gpu_failures << ",\n";
  out << inner << "\"seconds_per_depth_map_median\": " << summary.depth_map_seconds_median << ",\n";
  out << inner << "\"depth_map_seconds_total\": " << summary.depth_map_seconds_total << ",\n";
  out << inner << "\"pixels_with_depth\": " << summary.num_pixels_with_depth << ",\n";
  out << inner << "\"pixels_kept_by_filter\": " << summary.num_pixels_kept << ",\n";
  out << inner << "\"points\": " << summary.num_points << ",\n";
  out << inner << "\"stage_seconds\": {\"undistort\": " << summary.undistort_seconds
      << ", \"depth_maps\": " << summary.depth_maps_seconds << ", \"fusion\": " << summary.fusion_seconds
      << ", \"total\": " << summary.total_seconds << "},\n";
  out << inner << "\"skipped_images\": [";
  for (size_t i = 0; i < summary.skipped.size(); ++i) {
    out << (i ? ",\n" : "\n") << inner << "  {\"name\": " << JsonString(summary.skipped[i].name)
        << ", \"reason\": " << JsonString(summary.skipped[i].reason) << "}";
  }
  out << (summary.skipped.empty() ? "" : "\n" + inner) << "]\n" << indent << "}";
}

void WriteDenseReport(const DenseSummary& summary, const std::string& path) {
  WriteFileAtomically(path, [&](std::ostream& out) {
    WriteDenseSummaryJson(summary, "", out);
    out << "\n";
  });
}

}  // namespace proj::mvs
