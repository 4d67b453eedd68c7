#include "mvs/plane_blur.h"

#include <cstddef>

namespace proj::mvs {
namespace {

// One box blur of `count` values `stride` apart starting at `in`, into `out` (same layout).
void BoxBlurLine(const float* in, float* out, int count, ptrdiff_t stride, int radius) {
  const float scale = 1.0f / (2 * radius + 1);
  double sum = 0;
  for (int i = 0; i < radius && i < count; ++i) sum += in[i * stride];
  for (int i = 0; i < count; ++i) {
    if (i + radius < count) sum += in[(i + radius) * stride];
    if (i - radius - 1 >= 0) sum -= in[(i - radius - 1) * stride];
    out[i * stride] = static_cast<float>(sum * scale);
  }
}

}  // namespace

void BlurPlane(int width, int height, int radius, std::vector<float>* plane, std::vector<float>* scratch) {
  scratch->resize(plane->size());
  for (int pass = 0; pass < 3; ++pass) {
    for (int y = 0; y < height; ++y) {
      BoxBlurLine(plane->data() + static_cast<ptrdiff_t>(y) * width, scratch->data() + static_cast<ptrdiff_t>(y) * width,
                  width, 1, radius);
    }
    for (int x = 0; x < width; ++x) BoxBlurLine(scratch->data() + x, plane->data() + x, height, width, radius);
  }
}

}  // namespace proj::mvs
