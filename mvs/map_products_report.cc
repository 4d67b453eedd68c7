#include "mvs/map_products_report.h"

#include "io/atomic_file.h"
#include "io/json_string.h"

namespace proj::mvs {

void WriteMapProductsJson(const MapProductsSummary& summary, const std::string& indent, std::ostream& out) {
  const std::string inner = indent + "  ";
  const auto path_or_null = [](const std::string& path) { return path.empty() ? "null" : JsonString(path); };
  out << "{\n";
  out << inner << "\"dsm\": " << path_or_null(summary.dsm_path) << ",\n";
  out << inner << "\"orthophoto\": " << path_or_null(summary.orthophoto_path) << ",\n";
  out << inner << "\"crs\": " << JsonString(summary.crs_code) << ",\n";
  out << inner << "\"crs_name\": " << JsonString(summary.crs_name) << ",\n";
  out << inner << "\"vertical_datum\": " << JsonString(summary.vertical_datum) << ",\n";
  out << inner << "\"resolution_m\": " << JsonNumber(summary.grid.cell_m) << ",\n";
  out << inner << "\"ground_sample_distance_m\": " << JsonNumber(summary.ground_sample_distance_m) << ",\n";
  out << inner << "\"width\": " << summary.grid.width << ",\n";
  out << inner << "\"height\": " << summary.grid.height << ",\n";
  out << inner << "\"geotransform\": [";
  const auto transform = summary.grid.GdalGeoTransform();
  for (size_t i = 0; i < transform.size(); ++i) out << (i ? ", " : "") << JsonNumber(transform[i]);
  out << "],\n";
  out << inner << "\"points\": " << summary.num_points << ",\n";
  out << inner << "\"cells_known\": " << summary.num_cells_known << ",\n";
  out << inner << "\"cells_filled\": " << summary.num_cells_filled << ",\n";
  out << inner << "\"nodata_share\": " << JsonNumber(summary.nodata_share) << ",\n";
  out << inner << "\"height_min_m\": " << JsonNumber(summary.height_min_m) << ",\n";
  out << inner << "\"height_max_m\": " << JsonNumber(summary.height_max_m) << ",\n";
  out << inner << "\"orthophoto_cells_coloured\": " << summary.orthophoto_cells_coloured << ",\n";
  out << inner << "\"orthophoto_seconds\": " << JsonNumber(summary.orthophoto_seconds) << ",\n";
  out << inner << "\"seconds\": " << JsonNumber(summary.seconds) << "\n";
  out << indent << "}";
}

void WriteMapProductsReport(const MapProductsSummary& summary, const std::string& path) {
  WriteFileAtomically(path, [&](std::ostream& out) {
    WriteMapProductsJson(summary, "", out);
    out << "\n";
  });
}

}  // namespace proj::mvs
