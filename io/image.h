// Decoded 8-bit image in memory, row-major, interleaved channels (1 = grey, 3 = RGB).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace proj {

using Rgb8 = std::array<uint8_t, 3>;  // one RGB pixel or colour

struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;  // 1 or 3
  std::vector<uint8_t> data;  // width * height * channels bytes

  bool empty() const { return data.empty(); }
  const uint8_t* pixel(int x, int y) const { return &data[(static_cast<size_t>(y) * width + x) * channels]; }
};

}  // namespace proj
