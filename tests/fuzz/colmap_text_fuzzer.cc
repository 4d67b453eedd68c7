// libFuzzer target: the COLMAP text model reader (sfm/reconstruction_io/colmap_text.h). The
// input holds cameras.txt, images.txt and points3D.txt separated by fuzz::kFileSeparator.
// Bad models must end in proj::InputError; a model that reads must be consistent.
#include <cstddef>
#include <cstdint>

#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/fuzz/scene_consistency.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  proj::fuzz::FuzzColmapReader(data, size, ".txt", proj::ReadColmapText);
  return 0;
}
