#include "sfm/outputs/georeferenced_outputs.h"

#include <iomanip>
#include <map>
#include <memory>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "geometry/geodesy/map_projection.h"
#include "geometry/geodesy/vertical_datum.h"
#include "io/atomic_file.h"
#include "io/json_cursor.h"
#include "io/json_string.h"
#include "io/las_file.h"

namespace proj {
namespace {

std::string NotGeoreferencedReason(const ReconstructionResult& result) {
  if (!result.mapper.success) return "no model was built";
  const std::string gcp_reason = result.ground_control
                                     ? "the ground control points could not be used (" +
                                           result.ground_control->failure_reason + "); "
                                     : "";
  if (!result.enu_frame) return gcp_reason + "no image has a usable GPS position (or --no-georeference)";
  if (result.ground_control) return gcp_reason + "the GPS alignment: " + result.mapper.georeference.failure_reason;
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

// The datum of georeference.json's text for it (VerticalDatumName).
VerticalDatum DatumNamed(const std::string& name, JsonCursor* cursor) {
  for (VerticalDatum datum : {VerticalDatum::kEllipsoid, VerticalDatum::kEgm96}) {
    if (VerticalDatumName(datum) == name) return datum;
  }
  cursor->Fail("unknown height datum \"" + name + "\"");
}

// The points as a LAS file, for both kinds of point arrays (the sparse model's doubles, dense
// floats). Conversions take about a microsecond a point: dense clouds are converted in chunks
// on all threads.
template <typename Position, typename Color>
void WritePointsLas(const EnuFrame& frame, const std::vector<Position>& positions_enu,
                    const std::vector<Color>& colors, const std::string& system_identifier,
                    const std::string& path) {
  PROJ_REQUIRE(positions_enu.size() == colors.size(), "'" << path << "': " << positions_enu.size()
                                                          << " points and " << colors.size() << " colours");
  // One projection per thread: the PROJ contexts inside are not thread-safe.
  const MapProjection first(frame, /*warn=*/true);
  LasPointCloud cloud;
  cloud.epsg = first.zone().Epsg();
  cloud.crs_name = UtmCrsName(first.zone());
  cloud.vertical_epsg = VerticalDatumEpsg(first.heights());
  if (cloud.vertical_epsg) cloud.vertical_crs_name = VerticalDatumName(first.heights());
  cloud.system_identifier = system_identifier;
  const size_t count = positions_enu.size();
  cloud.positions.resize(count);
  cloud.colors.reserve(count);
  for (const Color& color : colors) cloud.colors.push_back({color[0], color[1], color[2]});
  constexpr size_t kChunk = 1 << 16;
  const int chunks = static_cast<int>((count + kChunk - 1) / kChunk);
  std::vector<std::unique_ptr<MapProjection>> projections(ResolveNumThreads(0));
  ParallelFor(0, chunks, 0, [&](int chunk, int worker) {
    if (worker > 0 && !projections[worker]) projections[worker] = std::make_unique<MapProjection>(frame, false);
    const MapProjection& projection = worker > 0 ? *projections[worker] : first;
    for (size_t i = chunk * kChunk; i < std::min(count, (chunk + 1) * kChunk); ++i) {
      cloud.positions[i] = projection.MapFromEnu(positions_enu[i].template cast<double>());
    }
  });
  WriteLasFile(path, cloud);
}

}  // namespace

bool IsGeoreferenced(const ReconstructionResult& result) {
  return result.mapper.success && result.enu_frame.has_value() &&
         result.mapper.georeference.aligned;
}

bool IsComponentGeoreferenced(const ReconstructionResult& result, const ComponentModel& component) {
  const bool gcp_frame = result.ground_control && result.ground_control->georeferenced;
  return component.mapper.success && result.enu_frame.has_value() && !gcp_frame &&
         component.mapper.georeference.aligned;
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
  const MapProjection map(frame);
  const VerticalDatum output_heights = map.heights();
  const HeightConverter geoid;
  const Scene& scene = result.scene;
  const std::string in = indent + "  ";
  out << std::setprecision(12) << "{\n"
      << in << "\"georeferenced\": true,\n"
      << in << "\"georeferenced_by\": "
      << (result.ground_control && result.ground_control->georeferenced ? "\"ground control points\"" : "\"GPS\"")
      << ",\n"
      << in << "\"model_frame\": \"local ENU: x east, y north, z up, metres, origin below\",\n"
      << in << "\"enu_origin_wgs84\": {\"latitude_deg\": " << frame.ref_latitude_deg
      << ", \"longitude_deg\": " << frame.ref_longitude_deg
      << ", \"altitude_m\": " << frame.ref_altitude_m
      << ", \"height_datum\": " << JsonString(VerticalDatumName(frame.heights)) << "},\n"
      << in << "\"gps_altitude_datum\": " << JsonString(VerticalDatumName(frame.output_heights))
      << ",\n"
      << in << "\"gps_altitude_datum_from\": "
      << JsonString(frame.fixes_datum ? "--gps-altitude-datum" : "the images' EXIF and XMP") << ",\n"
      << in << "\"output_height_datum\": " << JsonString(VerticalDatumName(output_heights)) << ",\n"
      << in << "\"geoid_grid\": " << (geoid.available() ? JsonString(geoid.grid_name()) : "null")
      << ",\n"
      << in << "\"geoid_height_at_origin_m\": ";
  if (geoid.available()) {
    out << std::setprecision(6) << geoid.GeoidUndulationM(frame.ref_latitude_deg, frame.ref_longitude_deg);
  } else {
    out << "null";
  }
  out << ",\n"
      << in << "\"las_crs\": \"" << map.CrsCode() << "\",\n"
      << in << "\"las_crs_name\": " << JsonString(map.CrsName()) << ",\n"
      << std::setprecision(6)
      << in << "\"last_alignment_scale\": " << alignment.priors_from_model.scale << ",\n"
      << in << "\"images_with_gps\": " << scene.position_priors.size() << ",\n"
      << in << "\"registered_with_gps\": " << alignment.residuals.size() << ",\n"
      << in << "\"gps_inliers\": " << alignment.NumInliers() << ",\n"
      << in << "\"gps_residual_rms_m\": " << alignment.inlier_rms_m << ",\n"
      << in << "\"gps_residual_max_m\": " << alignment.inlier_max_m << ",\n"
      << in << "\"gps_residual_median_m\": " << alignment.inlier_median_m << ",\n"
      << in << "\"gps_residual_all_fixes\": {\"median_m\": " << alignment.all_median_m
      << ", \"rms_m\": " << alignment.all_rms_m << ", \"max_m\": " << alignment.all_max_m << "},\n"
      << in << "\"roll_uncertainty_deg\": " << alignment.roll_uncertainty_deg << ",\n"
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
  std::vector<Eigen::Vector3d> positions;
  std::vector<Eigen::Matrix<uint8_t, 3, 1>> colors;
  positions.reserve(result.scene.points.size());
  colors.reserve(result.scene.points.size());
  for (const auto& [id, point] : result.scene.points) {
    positions.push_back(point.position);
    colors.push_back(point.color);
  }
  WriteGeoreferencedPointsLas(*result.enu_frame, positions, colors, "sfm sparse model", path);
}

void WriteGeoreferencedPointsLas(const EnuFrame& frame, const std::vector<Eigen::Vector3d>& positions_enu,
                                 const std::vector<Eigen::Matrix<uint8_t, 3, 1>>& colors,
                                 const std::string& system_identifier, const std::string& path) {
  WritePointsLas(frame, positions_enu, colors, system_identifier, path);
}

void WriteGeoreferencedPointsLas(const EnuFrame& frame, const std::vector<Eigen::Vector3f>& positions_enu,
                                 const std::vector<Rgb8>& colors, const std::string& system_identifier,
                                 const std::string& path) {
  WritePointsLas(frame, positions_enu, colors, system_identifier, path);
}

void WriteCamerasCsv(const ReconstructionResult& result, const std::string& path) {
  PROJ_CHECK(IsGeoreferenced(result), "WriteCamerasCsv: the model is not georeferenced");
  const MapProjection map(*result.enu_frame);
  const Scene& scene = result.scene;
  const auto residuals = ResidualsById(result.mapper.georeference);
  WriteFileAtomically(path, [&](std::ostream& out) {
    out << "image,registered,gps_status,"
           "est_east_m,est_north_m,est_up_m,est_latitude_deg,est_longitude_deg,est_altitude_m,"
           "gps_east_m,gps_north_m,gps_up_m,gps_latitude_deg,gps_longitude_deg,gps_altitude_m,"
           "gps_error_m\n";
    auto write_position = [&](const Eigen::Vector3d& p) {
      const Wgs84Position wgs = map.Wgs84FromEnu(p);
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

std::optional<EnuFrame> ReadEnuFrameFromGeoreferenceJson(const std::string& path) {
  JsonCursor cursor = JsonCursor::FromFile(path, "a georeference.json file");
  std::optional<bool> georeferenced;
  bool have_origin = false, have_output_datum = false, fixes_datum_imposed = false;
  EnuFrame frame;
  cursor.Expect('{');
  do {
    const std::string key = cursor.String();
    cursor.Expect(':');
    if (key == "georeferenced") {
      georeferenced = cursor.Boolean();
    } else if (key == "enu_origin_wgs84") {
      int fields = 0;
      cursor.Expect('{');
      do {
        const std::string field = cursor.String();
        cursor.Expect(':');
        if (field == "latitude_deg") {
          frame.ref_latitude_deg = cursor.Number();
        } else if (field == "longitude_deg") {
          frame.ref_longitude_deg = cursor.Number();
        } else if (field == "altitude_m") {
          frame.ref_altitude_m = cursor.Number();
        } else if (field == "height_datum") {
          frame.heights = DatumNamed(cursor.String(), &cursor);
        } else {
          cursor.SkipValue();
          continue;
        }
        ++fields;
      } while (cursor.Accept(','));
      cursor.Expect('}');
      if (fields != 4) cursor.Fail("enu_origin_wgs84 lacks a field");
      have_origin = true;
    } else if (key == "gps_altitude_datum") {
      frame.output_heights = DatumNamed(cursor.String(), &cursor);
      have_output_datum = true;
    } else if (key == "gps_altitude_datum_from") {
      fixes_datum_imposed = cursor.String() == "--gps-altitude-datum";
    } else {
      cursor.SkipValue();
    }
  } while (cursor.Accept(','));
  cursor.Expect('}');
  cursor.ExpectEnd();
  if (!georeferenced) cursor.Fail("no \"georeferenced\" key");
  if (!*georeferenced) return std::nullopt;
  if (!have_origin || !have_output_datum) cursor.Fail("no enu_origin_wgs84 or gps_altitude_datum");
  // An imposed datum was every fix's, hence the outputs'.
  if (fixes_datum_imposed) frame.fixes_datum = frame.output_heights;
  PROJ_REQUIRE(IsValidWgs84({frame.ref_latitude_deg, frame.ref_longitude_deg, frame.ref_altitude_m}),
               "'" << path << "': the ENU origin is not a valid WGS84 position");
  return frame;
}

}  // namespace proj
