// Normal map of one image: the unit surface normal at each pixel in the camera frame (x right,
// y down, z forward; a visible surface's normal has z < 0), (0, 0, 0) where there is none, as
// COLMAP writes them. Read and written in COLMAP's `.bin` format (io/float_raster_file.h),
// three channels stored as three planes.
#pragma once

#include <string>

#include <Eigen/Core>

#include "io/float_raster_file.h"

namespace proj::mvs {

class NormalMap {
 public:
  NormalMap() = default;
  NormalMap(int width, int height) : raster_(width, height, 3) {}
  // Takes a three-channel raster (PROJ_CHECK).
  explicit NormalMap(FloatRaster raster);

  int width() const { return raster_.width; }
  int height() const { return raster_.height; }
  Eigen::Vector3f At(int x, int y) const {
    return Eigen::Vector3f(raster_.At(x, y, 0), raster_.At(x, y, 1), raster_.At(x, y, 2));
  }
  void Set(int x, int y, const Eigen::Vector3f& normal) {
    for (int c = 0; c < 3; ++c) raster_.At(x, y, c) = normal[c];
  }
  const FloatRaster& raster() const { return raster_; }
  float* data() { return raster_.data.data(); }  // channel-planar values, for bulk writers

 private:
  FloatRaster raster_{0, 0, 3};
};

// InputError naming the file for the reasons of ReadFloatRasterFile, or a channel count other
// than three.
NormalMap ReadNormalMap(const std::string& path);
// Atomic; InputError if the folder is not writable.
void WriteNormalMap(const std::string& path, const NormalMap& normal_map);

}  // namespace proj::mvs
