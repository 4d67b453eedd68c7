// A software raster target with a depth buffer: round splats and depth-tested lines in
// pixel coordinates, for pictures of a reconstruction without a GPU or OpenGL.
// Pixel convention as everywhere in the project: the centre of the top-left pixel is at
// (0.5, 0.5). Depth is any positive distance along the view axis; smaller is nearer.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "io/image.h"

namespace proj {

class ZBufferCanvas {
 public:
  ZBufferCanvas(int width_px, int height_px, const Rgb8& background);

  // A disc of `diameter_px` centred at `center_px`, at one depth. A diameter below one pixel
  // still fills the pixel that contains the centre, so no point disappears.
  void Splat(const Eigen::Vector2d& center_px, double depth, double diameter_px, const Rgb8& color);
  // A one-pixel line; the depth is interpolated perspective-correctly (linear in 1 / depth).
  void Line(const Eigen::Vector2d& a_px, double a_depth, const Eigen::Vector2d& b_px,
            double b_depth, const Rgb8& color);

  int width() const { return width_; }
  int height() const { return height_; }
  Image ToImage() const;  // RGB

 private:
  void Plot(int x, int y, double depth, const Rgb8& color);

  int width_;
  int height_;
  std::vector<uint8_t> rgb_;
  std::vector<float> depth_;  // +inf where nothing was drawn
};

}  // namespace proj
