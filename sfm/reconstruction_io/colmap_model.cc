#include "sfm/reconstruction_io/colmap_model.h"

#include <filesystem>

#include "core/check.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_text.h"

namespace proj {

Scene ReadColmapModel(const std::string& dir) {
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(dir) / "cameras.txt")) return ReadColmapText(dir);
  if (fs::exists(fs::path(dir) / "cameras.bin")) return ReadColmapBinary(dir);
  PROJ_REQUIRE(false, "'" << dir << "' holds no COLMAP model (neither cameras.txt nor "
                                   "cameras.bin)");
  return Scene{};
}

}  // namespace proj
