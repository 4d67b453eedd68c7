#include "sfm/pipeline/georeferenced_outputs.h"

#include <iomanip>
#include <map>
#include <sstream>

#include "core/check.h"
#include "geometry/geodesy/utm_projection.h"
#include "io/atomic_file.h"
#include "io/json_string.h"
#include "io/las_file.h"

namespace proj {
namespace {

UtmZone ZoneOfOrigin(const EnuFrame& frame) {
  return UtmZoneOf({frame.ref_latitude_deg, frame.ref_longitude_deg, frame.ref_altitude_m});
}

std::string CrsName(const UtmZone& zone) {
  return "WGS 84 / UTM zone " + std::to_string(zone.number) + (zone.north ? "N" : "S");
}

std::string NotGeoreferencedReason(const ReconstructionResult& result) {
  if (!result.mapper.success) return "no model was built";
  if (!result.enu_frame) return "no image has a usable GPS position (or --no-georeference)";
  return "the model could not be aligned to the GPS positions: " +
         result.mapper.georeference.failure_reason;
}

// The residual of each image with a fix in the last alignment, by image id.
std::map<int, const PriorResidual*> ResidualsById(const PriorAlignment& alignment) {
  std::map<int, const PriorResidual*> by_id;
  for (const PriorResidual& r : alignment.residuals) by_id[r.image_id] = &r;
  return by_id;
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

bool IsGeoreferenced(const ReconstructionResult& result) {
  return result.mapper.success && result.enu_frame.has_value() &&
         result.mapper.georeference.aligned;
}

const std::vector<std::string>& GeoreferencedOutputNames() {
  static const std::vector<std::string> names = {"georeference.json", "points.las", "cameras.csv"};
  return names;
}

void WriteGeoreferenceObject(const ReconstructionResult& result, const std::string& indent,
                             std::ostream& out) {
  if (!IsGeoreferenced(result)) {
    out << "{\"georeferenced\": false, \"reason\": " << JsonString(NotGeoreferencedReason(result))
        << "}";
    return;
  }
  const EnuFrame& frame = *result.enu_frame;
  const PriorAlignment& alignment = result.mapper.georeference;
  const UtmZone zone = ZoneOfOrigin(frame);
  const Scene& scene = result.scene;
  const std::string in = indent + "  ";
  out << std::setprecision(12) << "{\n"
      << in << "\"georeferenced\": true,\n"
      << in << "\"model_frame\": \"local ENU: x east, y north, z up, metres, origin below\",\n"
      << in << "\"enu_origin_wgs84\": {\"latitude_deg\": " << frame.ref_latitude_deg
      << ", \"longitude_deg\": " << frame.ref_longitude_deg
      << ", \"altitude_m\": " << frame.ref_altitude_m << "},\n"
      << in << "\"altitudes\": \"as in the images' EXIF, used as heights above the ellipsoid\",\n"
      << in << "\"las_crs\": \"EPSG:" << zone.Epsg() << "\",\n"
      << in << "\"las_crs_name\": " << JsonString(CrsName(zone)) << ",\n"
      << std::setprecision(6)
      << in << "\"last_alignment_scale\": " << alignment.priors_from_model.scale << ",\n"
      << in << "\"images_with_gps\": " << scene.position_priors.size() << ",\n"
      << in << "\"registered_with_gps\": " << alignment.residuals.size() << ",\n"
      << in << "\"gps_inliers\": " << alignment.NumInliers() << ",\n"
      << in << "\"gps_residual_rms_m\": " << alignment.inlier_rms_m << ",\n"
      << in << "\"gps_residual_max_m\": " << alignment.inlier_max_m << ",\n"
      << in << "\"images\": [";
  for (size_t i = 0; i < alignment.residuals.size(); ++i) {
    const PriorResidual& r = alignment.residuals[i];
    out << (i ? "," : "") << "\n"
        << in << "  {\"name\": " << JsonString(scene.images[r.image_id].name)
        << ", \"residual_enu_m\": [" << r.residual_m.x() << ", " << r.residual_m.y() << ", "
        << r.residual_m.z() << "], \"error_m\": " << r.residual_m.norm()
        << ", \"inlier\": " << (r.inlier ? "true" : "false") << "}";
  }
  out << "\n" << in << "]\n" << indent << "}";
}

void WriteGeoreferenceJson(const ReconstructionResult& result, const std::string& path) {
  PROJ_CHECK(IsGeoreferenced(result), "WriteGeoreferenceJson: the model is not georeferenced");
  WriteFileAtomically(path, [&](std::ostream& out) {
    WriteGeoreferenceObject(result, "", out);
    out << "\n";
  });
}

void WriteGeoreferencedLas(const ReconstructionResult& result, const std::string& path) {
  PROJ_CHECK(IsGeoreferenced(result), "WriteGeoreferencedLas: the model is not georeferenced");
  const LocalEnuConverter enu(*result.enu_frame);
  const UtmProjection utm(ZoneOfOrigin(*result.enu_frame));
  LasPointCloud cloud;
  cloud.epsg = utm.zone().Epsg();
  cloud.system_identifier = "sfm sparse model";
  for (const auto& [id, point] : result.scene.points) {
    cloud.positions.push_back(utm.FromWgs84(enu.Wgs84FromEnu(point.position)));
    cloud.colors.push_back(point.color);
  }
  WriteLasFile(path, cloud);
}

void WriteCamerasCsv(const ReconstructionResult& result, const std::string& path) {
  PROJ_CHECK(IsGeoreferenced(result), "WriteCamerasCsv: the model is not georeferenced");
  const LocalEnuConverter enu(*result.enu_frame);
  const Scene& scene = result.scene;
  const auto residuals = ResidualsById(result.mapper.georeference);
  WriteFileAtomically(path, [&](std::ostream& out) {
    out << "image,registered,gps_status,"
           "est_east_m,est_north_m,est_up_m,est_latitude_deg,est_longitude_deg,est_altitude_m,"
           "gps_east_m,gps_north_m,gps_up_m,gps_latitude_deg,gps_longitude_deg,gps_altitude_m,"
           "gps_error_m\n";
    auto write_position = [&](const Eigen::Vector3d& p) {
      const Wgs84Position wgs = enu.Wgs84FromEnu(p);
      out << std::fixed << std::setprecision(3) << p.x() << "," << p.y() << "," << p.z() << ","
          << std::setprecision(9) << wgs.latitude_deg << "," << wgs.longitude_deg << ","
          << std::setprecision(3) << wgs.altitude_m;
    };
    for (size_t i = 0; i < scene.images.size(); ++i) {
      const SceneImage& image = scene.images[i];
      const auto prior = scene.position_priors.find(static_cast<int>(i));
      const auto residual = residuals.find(static_cast<int>(i));
      const char* status = prior == scene.position_priors.end() ? "none"
                           : residual == residuals.end()        ? "unused"
                           : residual->second->inlier           ? "inlier"
                                                                : "outlier";
      out << CsvField(image.name) << "," << (image.registered ? 1 : 0) << "," << status << ",";
      if (image.registered) {
        write_position(image.cam_from_world.Center());
      } else {
        out << ",,,,,";
      }
      out << ",";
      if (prior != scene.position_priors.end()) {
        write_position(prior->second.position);
      } else {
        out << ",,,,,";
      }
      out << ",";
      if (image.registered && prior != scene.position_priors.end()) {
        out << std::setprecision(3) << (image.cam_from_world.Center() - prior->second.position).norm();
      }
      out << "\n";
    }
  });
}

}  // namespace proj
