// Float rasters in the `.bin` format of COLMAP's dense stereo (its depth and normal maps), so
// that maps we write can be read by COLMAP's `stereo_fusion` and the other way round. Layout,
// as COLMAP's mvs::Mat<float>::Read/Write (src/colmap/mvs/mat.{h,cc}):
//   ASCII header "WIDTH&HEIGHT&CHANNELS&" (decimal, no spaces), then
//   WIDTH * HEIGHT * CHANNELS little-endian float32 values, channel-planar: the value of
//   (x, y, c) is at index c * WIDTH * HEIGHT + y * WIDTH + x (a whole plane per channel).
// In io/ rather than mvs/ so that the synthetic scene writer (datasets/) can write true depth
// maps without depending on the dense stereo module.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace proj {

struct FloatRaster {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<float> data;  // channel-planar, width * height * channels values

  FloatRaster() = default;
  FloatRaster(int w, int h, int c)
      : width(w), height(h), channels(c), data(static_cast<size_t>(w) * h * c, 0.0f) {}
  size_t Index(int x, int y, int c = 0) const {
    return (static_cast<size_t>(c) * height + y) * width + x;
  }
  float At(int x, int y, int c = 0) const { return data[Index(x, y, c)]; }
  float& At(int x, int y, int c = 0) { return data[Index(x, y, c)]; }
};

// Largest raster we read: 2^28 values (1 GiB), far above any depth or normal map of a
// 100-megapixel photo, so that a corrupt header cannot ask for an absurd allocation.
constexpr size_t kMaxFloatRasterValues = size_t{1} << 28;

// Writes atomically (io/atomic_file.h). Throws InputError if the folder is not writable; an
// empty raster or one whose data size does not match its dimensions is a bug (PROJ_CHECK).
void WriteFloatRasterFile(const std::string& path, const FloatRaster& raster);

// Throws InputError naming the file and the reason when it is missing, its header is
// malformed, a size is zero, negative or too large, or its length does not match the header
// (truncated or trailing bytes), or, with `channels` > 0, it holds another number of channels.
FloatRaster ReadFloatRasterFile(const std::string& path, int channels = 0);

}  // namespace proj
