// libFuzzer target: the PLY reader (io/ply.h) on arbitrary file contents. Bad files must end
// in proj::InputError; a mesh that reads must be consistent.
#include <cstddef>
#include <cstdint>

#include "core/check.h"
#include "io/ply.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = proj::fuzz::WriteScratchFile("input.ply", data, size);
  try {
    const proj::PlyMesh mesh = proj::ReadPly(path);
    PROJ_CHECK(mesh.colors.empty() || mesh.colors.size() == mesh.positions.size(),
               "colour count differs from the vertex count");
  } catch (const proj::InputError&) {
  }
  return 0;
}
