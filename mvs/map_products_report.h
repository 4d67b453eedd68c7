// The map products' summary as JSON: the "products" object of report.json (sfm/outputs) and
// OUT/products.json of `sfm products`:
//   {"dsm": "OUT/dsm.tif", "orthophoto": null, "crs": "EPSG:32615+5773",
//    "crs_name": "WGS 84 / UTM zone 15N + EGM96 height", "vertical_datum": "EGM96 height",
//    "resolution_m": 0.047, "ground_sample_distance_m": 0.0234, "width": 2210, "height": 1830,
//    "geotransform": [west, cell, 0, north, 0, -cell], "points": 4500000,
//    "cells_known": 3600000, "cells_filled": 12000, "nodata_share": 0.11,
//    "height_min_m": 180.2, "height_max_m": 212.9, "seconds": 14.2}
#pragma once

#include <ostream>
#include <string>

#include "mvs/map_products.h"

namespace proj::mvs {

// The object, its lines after the first indented by `indent` (no trailing newline).
void WriteMapProductsJson(const MapProductsSummary& summary, const std::string& indent, std::ostream& out);

// The object alone as a file, atomically; InputError naming the file when it cannot.
void WriteMapProductsReport(const MapProductsSummary& summary, const std::string& path);

}  // namespace proj::mvs
