#include "io/image_orientation.h"

#include <cstring>

namespace proj {

Image ApplyExifOrientation(const Image& stored, int orientation) {
  if (orientation < 2 || orientation > 8) return stored;
  const int w = stored.width;
  const int h = stored.height;
  const int c = stored.channels;
  Image upright;
  upright.channels = c;
  upright.width = OrientationSwapsAxes(orientation) ? h : w;
  upright.height = OrientationSwapsAxes(orientation) ? w : h;
  upright.data.resize(stored.data.size());
  // For each upright pixel (x, y), the stored pixel (sx, sy) it comes from.
  for (int y = 0; y < upright.height; ++y) {
    uint8_t* out = &upright.data[static_cast<size_t>(y) * upright.width * c];
    for (int x = 0; x < upright.width; ++x, out += c) {
      int sx = x, sy = y;
      switch (orientation) {
        case 2: sx = w - 1 - x; sy = y; break;
        case 3: sx = w - 1 - x; sy = h - 1 - y; break;
        case 4: sx = x; sy = h - 1 - y; break;
        case 5: sx = y; sy = x; break;
        case 6: sx = y; sy = h - 1 - x; break;
        case 7: sx = w - 1 - y; sy = h - 1 - x; break;
        case 8: sx = w - 1 - y; sy = x; break;
        default: break;
      }
      std::memcpy(out, stored.pixel(sx, sy), c);
    }
  }
  return upright;
}

}  // namespace proj
