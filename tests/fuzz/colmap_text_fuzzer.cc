// libFuzzer target: the COLMAP text model reader (sfm/reconstruction_io/colmap_text.h). The
// input holds cameras.txt, images.txt and points3D.txt separated by fuzz::kFileSeparator.
// Bad models must end in proj::InputError; a model that reads must be consistent.
#include <cstddef>
#include <cstdint>

#include "core/check.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/scene_consistency.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* const names[] = {"cameras.txt", "images.txt", "points3D.txt"};
  try {
    proj::fuzz::CheckSceneConsistency(
        proj::ReadColmapText(proj::fuzz::WriteScratchFiles(data, size, names, 3)));
  } catch (const proj::InputError&) {
  }
  return 0;
}
