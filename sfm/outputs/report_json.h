// report.json: the run's counts, stage times, registration and accuracy statistics, skipped
// files, the model's self-check "quality" (quality_report.h; with a model), for a
// georeferenced model the georeference (georeferenced_outputs.h) and, after the dense stage,
// its "dense" object (mvs/dense_report.h), and after the map products their "products" object
// (mvs/map_products_report.h).
#pragma once

#include <string>

#include "sfm/outputs/run_description.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

// Writes report.json atomically (also when no model could be built, with "success": false);
// InputError naming the file when it cannot.
void WriteReport(const ReconstructionResult& result, const RunDescription& run,
                 const std::string& path);

}  // namespace proj
