// Synthetic RGB test images: each pixel's three bytes set by a function of its position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/image.h"

namespace proj::testing {

// `pixel(x, y, rgb)` writes rgb[0..2] of pixel (x, y).
template <typename PixelFunction>
Image MakeRgbImage(int width, int height, PixelFunction pixel) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = 3;
  image.data.resize(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) pixel(x, y, &image.data[(static_cast<size_t>(y) * width + x) * 3]);
  }
  return image;
}

}  // namespace proj::testing
