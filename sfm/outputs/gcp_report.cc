#include "sfm/outputs/gcp_report.h"

#include <iomanip>
#include <sstream>

#include "io/json_string.h"

namespace proj {
namespace {

void WriteVector(const Eigen::Vector3d& v, std::ostream& out) {
  out << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
}

void WriteRms(const GcpRms& rms, std::ostream& out) {
  out << "{\"points\": " << rms.count << ", \"enu_m\": ";
  WriteVector(rms.enu_m, out);
  out << ", \"error_m\": " << rms.error_m << "}";
}

void DescribeRms(const char* role, const GcpRms& rms, std::ostream& out) {
  out << rms.count << " " << role;
  if (rms.count > 0) {
    out << ", RMS " << rms.error_m << " m (E " << rms.enu_m.x() << ", N " << rms.enu_m.y() << ", U " << rms.enu_m.z()
        << ")";
  }
}

}  // namespace

void WriteGcpObject(const GroundControlSummary& gcp, const std::string& indent, std::ostream& out) {
  const std::string in = indent + "  ";
  out << std::setprecision(6) << "{\n"
      << in << "\"file\": " << JsonString(gcp.file) << ",\n"
      << in << "\"crs\": " << JsonString(gcp.crs) << ",\n"
      << in << "\"sigma_m\": {\"horizontal\": " << gcp.sigma_horizontal_m << ", \"vertical\": " << gcp.sigma_vertical_m
      << "},\n"
      << in << "\"georeferenced\": " << (gcp.georeferenced ? "true" : "false") << ",\n";
  if (!gcp.georeferenced) out << in << "\"failure_reason\": " << JsonString(gcp.failure_reason) << ",\n";
  out << in << "\"points\": [";
  for (size_t i = 0; i < gcp.points.size(); ++i) {
    const GcpResidual& p = gcp.points[i];
    out << (i ? "," : "") << "\n"
        << in << "  {\"name\": " << JsonString(p.name) << ", \"role\": \""
        << (p.role == GcpRole::kControl ? "control" : "check") << "\", \"marks\": " << p.num_marks
        << ", \"registered_marks\": " << p.num_registered_marks
        << ", \"triangulated\": " << (p.triangulated ? "true" : "false");
    if (p.triangulated) {
      out << ", \"residual_enu_m\": ";
      WriteVector(p.residual_enu_m, out);
      out << ", \"error_m\": " << p.residual_enu_m.norm();
    }
    out << "}";
  }
  out << "\n" << in << "],\n" << in << "\"control_rms\": ";
  WriteRms(gcp.control, out);
  out << ",\n" << in << "\"check_rms\": ";
  WriteRms(gcp.check, out);
  out << "\n" << indent << "}";
}

std::string GcpSummaryLine(const GroundControlSummary& gcp) {
  std::ostringstream line;
  line << std::setprecision(3) << "GCPs: ";
  if (!gcp.georeferenced) {
    line << "not used (" << gcp.failure_reason << ")";
    return line.str();
  }
  DescribeRms("control", gcp.control, line);
  line << "; ";
  DescribeRms("check", gcp.check, line);
  return line.str();
}

}  // namespace proj
