#include "sfm/render/zbuffer_canvas.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"

namespace proj {

ZBufferCanvas::ZBufferCanvas(int width_px, int height_px, const Rgb8& background)
    : width_(width_px), height_(height_px) {
  PROJ_REQUIRE(width_px > 0 && height_px > 0 && width_px <= 16384 && height_px <= 16384,
               "render size " << width_px << "x" << height_px << " must be 1..16384 px a side");
  const size_t num_pixels = static_cast<size_t>(width_) * height_;
  rgb_.resize(num_pixels * 3);
  for (size_t i = 0; i < num_pixels; ++i) std::copy(background.begin(), background.end(), &rgb_[3 * i]);
  depth_.assign(num_pixels, std::numeric_limits<float>::infinity());
}

void ZBufferCanvas::Plot(int x, int y, double depth, const Rgb8& color) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  const size_t index = static_cast<size_t>(y) * width_ + x;
  if (!(depth < depth_[index])) return;
  depth_[index] = static_cast<float>(depth);
  std::copy(color.begin(), color.end(), &rgb_[3 * index]);
}

void ZBufferCanvas::Splat(const Eigen::Vector2d& center_px, double depth, double diameter_px,
                          const Rgb8& color) {
  if (!center_px.allFinite()) return;
  const double radius = 0.5 * diameter_px;
  const double radius_squared = radius * radius;
  // Pixels whose centres lie inside the disc.
  const int x0 = static_cast<int>(std::floor(center_px.x() - radius));
  const int x1 = static_cast<int>(std::ceil(center_px.x() + radius));
  const int y0 = static_cast<int>(std::floor(center_px.y() - radius));
  const int y1 = static_cast<int>(std::ceil(center_px.y() + radius));
  if (x1 < 0 || y1 < 0 || x0 >= width_ || y0 >= height_) return;
  bool filled = false;
  for (int y = std::max(y0, 0); y <= std::min(y1, height_ - 1); ++y) {
    const double dy = y + 0.5 - center_px.y();
    for (int x = std::max(x0, 0); x <= std::min(x1, width_ - 1); ++x) {
      const double dx = x + 0.5 - center_px.x();
      if (dx * dx + dy * dy > radius_squared) continue;
      Plot(x, y, depth, color);
      filled = true;
    }
  }
  if (!filled) {
    Plot(static_cast<int>(std::floor(center_px.x())), static_cast<int>(std::floor(center_px.y())),
         depth, color);
  }
}

void ZBufferCanvas::Line(const Eigen::Vector2d& a_px, double a_depth, const Eigen::Vector2d& b_px,
                         double b_depth, const Rgb8& color) {
  if (!a_px.allFinite() || !b_px.allFinite() || !(a_depth > 0) || !(b_depth > 0)) return;
  // Segments far outside the canvas (a camera just beside the viewer) are skipped rather
  // than walked pixel by pixel.
  const double limit = 4.0 * (width_ + height_);
  if (a_px.cwiseAbs().maxCoeff() > limit || b_px.cwiseAbs().maxCoeff() > limit) return;
  const double length = (b_px - a_px).lpNorm<Eigen::Infinity>();
  const int steps = std::max(1, static_cast<int>(std::ceil(length)));
  for (int i = 0; i <= steps; ++i) {
    const double s = static_cast<double>(i) / steps;
    const Eigen::Vector2d p = a_px + s * (b_px - a_px);
    const double depth = 1.0 / ((1 - s) / a_depth + s / b_depth);
    Plot(static_cast<int>(std::floor(p.x())), static_cast<int>(std::floor(p.y())), depth, color);
  }
}

Image ZBufferCanvas::ToImage() const {
  Image image;
  image.width = width_;
  image.height = height_;
  image.channels = 3;
  image.data = rgb_;
  return image;
}

}  // namespace proj
