#include "sfm/undistort/undistort_image.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "sfm/undistort/undistorted_camera.h"

namespace proj {

bool SampleBilinear(const Image& image, double u, double v, int channel, double* value) {
  if (!(u >= 0 && u <= image.width && v >= 0 && v <= image.height)) return false;
  // Array coordinates of the pixel centres, clamped so the outer half pixel reads the edge.
  const double x = std::clamp(u - 0.5, 0.0, image.width - 1.0);
  const double y = std::clamp(v - 0.5, 0.0, image.height - 1.0);
  const int x0 = static_cast<int>(x);
  const int y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, image.width - 1);
  const int y1 = std::min(y0 + 1, image.height - 1);
  const double wx = x - x0;
  const double wy = y - y0;
  const auto at = [&](int px, int py) { return static_cast<double>(image.pixel(px, py)[channel]); };
  *value = (1 - wy) * ((1 - wx) * at(x0, y0) + wx * at(x1, y0)) + wy * ((1 - wx) * at(x0, y1) + wx * at(x1, y1));
  return true;
}

Image UndistortImage(const Image& image, const Camera& camera, const Camera& pinhole) {
  PROJ_CHECK(image.width == camera.width && image.height == camera.height, "image and camera sizes differ");
  Image out;
  out.width = pinhole.width;
  out.height = pinhole.height;
  out.channels = image.channels;
  out.data.assign(static_cast<size_t>(out.width) * out.height * out.channels, 0);
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      const Eigen::Vector2d uv = DistortPixel(pinhole, camera, Eigen::Vector2d(x + 0.5, y + 0.5));
      uint8_t* pixel = &out.data[(static_cast<size_t>(y) * out.width + x) * out.channels];
      for (int c = 0; c < out.channels; ++c) {
        double value = 0;
        if (SampleBilinear(image, uv.x(), uv.y(), c, &value)) {
          pixel[c] = static_cast<uint8_t>(std::clamp(std::lround(value), 0L, 255L));
        }
      }
    }
  }
  return out;
}

}  // namespace proj
