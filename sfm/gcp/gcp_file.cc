#include "sfm/gcp/gcp_file.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>

#include "core/check.h"
#include "io/file_bytes.h"

namespace proj {
namespace {

std::string Trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// A finite number spanning the whole field, or false.
bool ParseNumber(const std::string& field, double* value) {
  char* end = nullptr;
  *value = std::strtod(field.c_str(), &end);
  return end == field.c_str() + field.size() && !field.empty() && std::isfinite(*value);
}

}  // namespace

GcpFile ParseGcpFile(const std::string& text, const std::string& path) {
  std::unique_ptr<CrsToWgs84> converter;
  return ParseGcpFile(text, path, [&](const std::string& crs) -> const CrsToWgs84& {
    converter = std::make_unique<CrsToWgs84>(crs);
    return *converter;
  });
}

GcpFile ParseGcpFile(const std::string& text, const std::string& path,
                     const std::function<const CrsToWgs84&(const std::string&)>& converter_for) {
  GcpFile file;
  file.path = path;
  std::istringstream lines(text);
  std::string line_text;
  int line = 0;
  const CrsToWgs84* to_wgs84 = nullptr;
  std::map<std::string, size_t> index_of;  // point name -> index in file.points
  while (std::getline(lines, line_text)) {
    ++line;
    const std::string trimmed = Trim(line_text);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    if (!to_wgs84) {
      file.crs = trimmed;
      try {
        to_wgs84 = &converter_for(trimmed);
      } catch (const InputError& error) {
        PROJ_REQUIRE(false, path << ":" << line << ": " << error.what());
      }
      continue;
    }
    std::istringstream fields_stream(trimmed);
    std::vector<std::string> fields;
    for (std::string field; fields_stream >> field;) fields.push_back(field);
    PROJ_REQUIRE(fields.size() >= 6, path << ":" << line << ": expected 'geo_x geo_y geo_z im_x im_y image_name "
                                                            "[gcp_name]', found "
                                          << fields.size() << " field(s)");
    double values[5];
    for (int i = 0; i < 5; ++i) {
      PROJ_REQUIRE(ParseNumber(fields[i], &values[i]),
                   path << ":" << line << ": field " << i + 1 << " ('" << fields[i] << "') is not a number");
    }
    const Eigen::Vector3d position(values[0], values[1], values[2]);
    GcpObservation observation{fields[5], Eigen::Vector2d(values[3], values[4]), line};
    std::string name = fields.size() >= 7 ? fields[6] : "";
    if (name.empty()) {
      name = "(" + fields[0] + ", " + fields[1] + ", " + fields[2] + ")";
    }
    auto found = index_of.find(name);
    if (found == index_of.end()) {
      GroundControlPoint point;
      point.name = name;
      point.crs_position = position;
      point.line = line;
      try {
        point.wgs84 = to_wgs84->Convert(position);
      } catch (const InputError& error) {
        PROJ_REQUIRE(false, path << ":" << line << ": " << error.what());
      }
      found = index_of.emplace(name, file.points.size()).first;
      file.points.push_back(std::move(point));
    }
    GroundControlPoint& point = file.points[found->second];
    PROJ_REQUIRE(point.crs_position == position,
                 path << ":" << line << ": point '" << name << "' was given other coordinates on line " << point.line);
    for (const GcpObservation& other : point.observations) {
      PROJ_REQUIRE(other.image_name != observation.image_name,
                   path << ":" << line << ": point '" << name << "' is marked in '" << observation.image_name
                        << "' already on line " << other.line);
    }
    point.observations.push_back(std::move(observation));
  }
  PROJ_REQUIRE(to_wgs84 != nullptr, path << ": empty GCP file (the first line must name the coordinate "
                                            "reference system, e.g. EPSG:32632)");
  for (const GroundControlPoint& point : file.points) {
    PROJ_REQUIRE(point.observations.size() >= 2,
                 path << ":" << point.line << ": point '" << point.name
                      << "' is marked in one image only; it needs at least two to be triangulated");
  }
  return file;
}

GcpFile ReadGcpFile(const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  return ParseGcpFile(std::string(bytes.begin(), bytes.end()), path);
}

void CheckGcpObservations(const GcpFile& file, const std::map<std::string, Eigen::Vector2i>& image_sizes) {
  for (const GroundControlPoint& point : file.points) {
    for (const GcpObservation& observation : point.observations) {
      const auto size = image_sizes.find(observation.image_name);
      PROJ_REQUIRE(size != image_sizes.end(), file.path << ":" << observation.line << ": image '"
                                                       << observation.image_name
                                                       << "' is not among the input images");
      const Eigen::Vector2d& pixel = observation.pixel;
      PROJ_REQUIRE(pixel.x() >= 0 && pixel.y() >= 0 && pixel.x() <= size->second.x() &&
                       pixel.y() <= size->second.y(),
                   file.path << ":" << observation.line << ": pixel (" << pixel.x() << ", " << pixel.y()
                             << ") is outside the " << size->second.x() << "x" << size->second.y()
                             << " image '" << observation.image_name << "'");
    }
  }
}

void CheckGcpNames(const GcpFile& file, const std::vector<std::string>& names) {
  std::set<std::string> known;
  for (const GroundControlPoint& point : file.points) known.insert(point.name);
  for (const std::string& name : names) {
    PROJ_REQUIRE(known.count(name), file.path << ": no point named '" << name << "' (--gcp-check)");
  }
}

}  // namespace proj
