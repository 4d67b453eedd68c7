// The model's self-check (sfm/stages/model_quality.h) in report.json, on the report page and
// in the run's summary on stdout. report.json's "quality" object:
//   verdict "good"|"suspect"|"failed", reasons [...], worst_images ["name (D m)", ...],
//   rebuilt_with_gps (the model is the GPS-constrained second attempt), first_attempt_verdict
//   (then: the first attempt's), registered_images, images, mean_reprojection_error_px,
//   gps: {checked, fixes, outliers, median_error_m (over all fixes), expected_error_m,
//         limit_m, aligned, refusal},
//   pairs: {checked, strong_pairs, contradicted_pairs, worst_pairs ["a.jpg - b.jpg (87% of 112
//           matches off)", ...]} (sfm/scene/pair_agreement.h), dome: {...}
#pragma once

#include <ostream>
#include <string>

#include "sfm/stages/reconstruction_result.h"

namespace proj {

// `indent` prefixes every line but the first.
void WriteQualityObject(const ReconstructionResult& result, const std::string& indent, std::ostream& out);

// One line: "model quality: good", or "model quality: failed: REASON; REASON (farthest from
// their GPS fixes: a.jpg (40 m), ...)", with the second attempt's word when there was one.
std::string QualitySummaryLine(const ReconstructionResult& result);

}  // namespace proj
