// The ground control points of a run (--gcp, sfm/gcp/ground_control.h) in report.json and in
// the run's summary on stdout. report.json's "gcp" object:
//   file, crs, sigma_m {horizontal, vertical}, georeferenced (and failure_reason when not),
//   points: [{name, role "control"|"check", marks, registered_marks, triangulated,
//             residual_enu_m [E, N, U] (triangulated from the final model - surveyed),
//             error_m}],
//   control_rms / check_rms: {points, enu_m [E, N, U], error_m}
#pragma once

#include <ostream>
#include <string>

#include "sfm/gcp/ground_control.h"

namespace proj {

// `indent` prefixes every line but the first.
void WriteGcpObject(const GroundControlSummary& gcp, const std::string& indent, std::ostream& out);

// One line: "GCPs: 5 control, RMS 0.012 m; 3 check, RMS 0.081 m (E 0.04, N 0.05, U 0.05)", or
// why they were not used.
std::string GcpSummaryLine(const GroundControlSummary& gcp);

}  // namespace proj
