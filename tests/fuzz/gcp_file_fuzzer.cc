// libFuzzer target: the ground control point file reader (sfm/gcp/gcp_file.h) on arbitrary
// text (ParseGcpFile, which ReadGcpFile calls on a file's bytes), then the checks against a
// run's images. Bad files must end in proj::InputError; a file that reads must hold points of
// at least two marks each, in distinct images, with valid WGS84 positions.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "core/check.h"
#include "sfm/gcp/gcp_file.h"

namespace {

// Each CRS text's converter, or nullptr for an unknown one, built once: building one searches
// PROJ's database, which would bring the fuzzer down to a few inputs a second.
const proj::CrsToWgs84& ConverterFor(const std::string& crs) {
  static std::map<std::string, std::unique_ptr<proj::CrsToWgs84>> converters;
  static std::map<std::string, std::string> failures;
  const auto failed = failures.find(crs);
  if (failed != failures.end()) throw proj::InputError(failed->second);
  auto& converter = converters[crs];
  if (!converter) {
    try {
      converter = std::make_unique<proj::CrsToWgs84>(crs);
    } catch (const proj::InputError& error) {
      converters.erase(crs);
      failures[crs] = error.what();
      throw;
    }
  }
  return *converter;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // ReadGcpFile is ParseGcpFile on the file's bytes.
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const proj::GcpFile file = proj::ParseGcpFile(text, "gcp_list.txt", ConverterFor);
    for (const proj::GroundControlPoint& point : file.points) {
      PROJ_CHECK(point.observations.size() >= 2, "a point with fewer than two marks was read");
      PROJ_CHECK(proj::IsValidWgs84(point.wgs84), "a point without a valid WGS84 position was read");
      std::set<std::string> images;
      for (const proj::GcpObservation& observation : point.observations) {
        PROJ_CHECK(images.insert(observation.image_name).second, "an image marked twice for one point");
      }
    }
    proj::CheckGcpObservations(file, {{"0000.jpg", {640, 480}}, {"0001.jpg", {640, 480}}});
  } catch (const proj::InputError&) {
  }
  return 0;
}
