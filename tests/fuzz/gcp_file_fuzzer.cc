// libFuzzer target: the ground control point file reader (sfm/gcp/gcp_file.h) on arbitrary
// text, through ReadGcpFile as the CLI calls it, then the checks against a run's images. Bad
// files must end in proj::InputError; a file that reads must hold points of at least two marks
// each, in distinct images, with valid WGS84 positions.
#include <cstddef>
#include <cstdint>
#include <set>

#include "core/check.h"
#include "sfm/gcp/gcp_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = proj::fuzz::WriteScratchFile("gcp_list.txt", data, size);
  try {
    const proj::GcpFile file = proj::ReadGcpFile(path);
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
