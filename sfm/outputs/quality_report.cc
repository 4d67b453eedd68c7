#include "sfm/outputs/quality_report.h"

#include <iomanip>
#include <sstream>

#include "io/json_string.h"

namespace proj {

void WriteQualityObject(const ReconstructionResult& result, const std::string& indent, std::ostream& out) {
  const ModelQuality& quality = result.quality;
  const GpsAgreement& gps = quality.gps;
  const std::string in = indent + "  ";
  out << std::setprecision(6) << "{\n"
      << in << "\"verdict\": " << JsonString(QualityVerdictName(quality.verdict)) << ",\n"
      << in << "\"reasons\": " << JsonStrings(quality.reasons) << ",\n"
      << in << "\"worst_images\": " << JsonStrings(quality.worst_images) << ",\n"
      << in << "\"rebuilt_with_gps\": " << (result.rebuilt_with_gps ? "true" : "false") << ",\n";
  if (result.first_attempt) {
    out << in << "\"first_attempt_verdict\": " << JsonString(QualityVerdictName(result.first_attempt->verdict))
        << ",\n"
        << in << "\"first_attempt_reasons\": " << JsonStrings(result.first_attempt->reasons) << ",\n";
  }
  out << in << "\"registered_images\": " << quality.num_registered << ",\n"
      << in << "\"images\": " << quality.num_images << ",\n"
      << in << "\"mean_reprojection_error_px\": " << quality.mean_reprojection_error_px << ",\n"
      << in << "\"gps\": {\"checked\": " << (gps.checked ? "true" : "false") << ", \"fixes\": " << gps.num_fixes
      << ", \"outliers\": " << gps.num_outliers << ", \"median_error_m\": " << gps.median_m
      << ", \"expected_error_m\": " << gps.expected_error_m << ", \"limit_m\": " << gps.limit_m
      << ", \"aligned\": " << (gps.aligned ? "true" : "false") << ", \"refusal\": " << JsonString(gps.refusal)
      << "},\n";
  const PairAgreement& pairs = quality.pairs;
  out << in << "\"pairs\": {\"checked\": " << (pairs.checked ? "true" : "false")
      << ", \"strong_pairs\": " << pairs.num_strong_pairs << ", \"contradicted_pairs\": " << pairs.num_contradicted_pairs
      << ", \"worst_pairs\": " << JsonStrings(pairs.worst_pairs) << "},\n";
  const GpsDome& dome = quality.dome;
  const DomeCorrection& correction = quality.dome_correction;
  out << in << "\"dome\": {\"measured\": " << (dome.measured ? "true" : "false") << ", \"fixes\": " << dome.num_fixes
      << ", \"radius_m\": " << dome.radius_m << ", \"edge_m\": " << dome.edge_m
      << ", \"edge_sigma_m\": " << dome.edge_sigma_m << ", \"corrected\": " << (correction.applied ? "true" : "false")
      << ", \"k1_shift\": " << correction.k1_shift << ", \"edge_before_correction_m\": " << correction.before.edge_m
      << ", \"note\": " << JsonString(correction.note) << "}\n"
      << indent << "}";
}

std::string QualitySummaryLine(const ReconstructionResult& result) {
  const ModelQuality& quality = result.quality;
  std::ostringstream line;
  line << "model quality: " << QualityVerdictName(quality.verdict);
  if (!quality.reasons.empty()) line << ": " << JoinReasons(quality.reasons);
  if (quality.verdict != QualityVerdict::kGood && !quality.worst_images.empty()) {
    line << " (farthest from their GPS fixes:";
    for (size_t i = 0; i < quality.worst_images.size(); ++i) line << (i ? ", " : " ") << quality.worst_images[i];
    line << ")";
  }
  if (result.rebuilt_with_gps) {
    line << " [second attempt, mapped with the GPS as a constraint from the start; the first was "
         << QualityVerdictName(result.first_attempt ? result.first_attempt->verdict : QualityVerdict::kFailed) << "]";
  }
  return line.str();
}

}  // namespace proj
