// libFuzzer target: the COLMAP binary model reader (sfm/reconstruction_io/colmap_binary.h). The
// input holds cameras.bin, images.bin and points3D.bin separated by fuzz::kFileSeparator.
// Bad models must end in proj::InputError; a model that reads must be consistent.
#include <cstddef>
#include <cstdint>

#include "core/check.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/scene_consistency.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* const names[] = {"cameras.bin", "images.bin", "points3D.bin"};
  try {
    proj::fuzz::CheckSceneConsistency(
        proj::ReadColmapBinary(proj::fuzz::WriteScratchFiles(data, size, names, 3)));
  } catch (const proj::InputError&) {
  }
  return 0;
}
