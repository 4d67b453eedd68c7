// libFuzzer target: the reader of COLMAP's .bin depth and normal maps (io/float_raster_file.h)
// on arbitrary file contents. Bad files must end in proj::InputError; a raster that reads
// must hold exactly the values its header promises.
#include <cstddef>
#include <cstdint>

#include "core/check.h"
#include "io/float_raster_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = proj::fuzz::WriteScratchFile("input.bin", data, size);
  try {
    const proj::FloatRaster raster = proj::ReadFloatRasterFile(path);
    PROJ_CHECK(raster.width > 0 && raster.height > 0 && raster.channels > 0, "empty raster read");
    PROJ_CHECK(raster.data.size() == static_cast<size_t>(raster.width) * raster.height * raster.channels,
               "value count differs from the header");
  } catch (const proj::InputError&) {
  }
  return 0;
}
