// Depth map of one image: the camera-frame z (metres, or the model's unit) of the surface seen
// at each pixel, 0 where there is no depth (COLMAP's convention). Read and written in COLMAP's
// `.bin` format (io/float_raster_file.h), one channel.
#pragma once

#include <string>

#include "io/float_raster_file.h"

namespace proj::mvs {

class DepthMap {
 public:
  DepthMap() = default;
  DepthMap(int width, int height) : raster_(width, height, 1) {}
  // Takes a one-channel raster (PROJ_CHECK).
  explicit DepthMap(FloatRaster raster);

  int width() const { return raster_.width; }
  int height() const { return raster_.height; }
  float At(int x, int y) const { return raster_.At(x, y); }
  float& At(int x, int y) { return raster_.At(x, y); }
  const FloatRaster& raster() const { return raster_; }
  float* data() { return raster_.data.data(); }  // channel-planar values, for bulk writers

 private:
  FloatRaster raster_{0, 0, 1};
};

// InputError naming the file for the reasons of ReadFloatRasterFile, or more than one channel.
DepthMap ReadDepthMap(const std::string& path);
// Atomic; InputError if the folder is not writable.
void WriteDepthMap(const std::string& path, const DepthMap& depth_map);

}  // namespace proj::mvs
