// libFuzzer target: the COLMAP binary model reader (sfm/reconstruction_io/colmap_binary.h). The
// input holds cameras.bin, images.bin and points3D.bin separated by fuzz::kFileSeparator.
// Bad models must end in proj::InputError; a model that reads must be consistent.
#include <cstddef>
#include <cstdint>

#include "sfm/reconstruction_io/colmap_binary.h"
#include "tests/fuzz/scene_consistency.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  proj::fuzz::FuzzColmapReader(data, size, ".bin", proj::ReadColmapBinary);
  return 0;
}
