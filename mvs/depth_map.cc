#include "mvs/depth_map.h"

#include <utility>

#include "core/check.h"

namespace proj::mvs {

DepthMap::DepthMap(FloatRaster raster) : raster_(std::move(raster)) {
  PROJ_CHECK(raster_.channels == 1, "a depth map has one channel, not " << raster_.channels);
}

DepthMap ReadDepthMap(const std::string& path) { return DepthMap(ReadFloatRasterFile(path, 1)); }

void WriteDepthMap(const std::string& path, const DepthMap& depth_map) {
  WriteFloatRasterFile(path, depth_map.raster());
}

}  // namespace proj::mvs
