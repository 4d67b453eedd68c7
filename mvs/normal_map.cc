#include "mvs/normal_map.h"

#include <utility>

#include "core/check.h"

namespace proj::mvs {

NormalMap::NormalMap(FloatRaster raster) : raster_(std::move(raster)) {
  PROJ_CHECK(raster_.channels == 3, "a normal map has three channels, not " << raster_.channels);
}

NormalMap ReadNormalMap(const std::string& path) { return NormalMap(ReadFloatRasterFile(path, 3)); }

void WriteNormalMap(const std::string& path, const NormalMap& normal_map) {
  WriteFloatRasterFile(path, normal_map.raster());
}

}  // namespace proj::mvs
