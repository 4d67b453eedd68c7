#include "datasets/synthetic/synthetic_renderer.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/LU>

#include "core/check.h"
#include "core/parallel_for.h"

namespace proj::synthetic {
namespace {

// Per-view constants: direction(u, v) = u * m.col(0) + v * m.col(1) + m.col(2) with
// m = R K^-1, and depth(u, v) = t * (u * w0 + v * w1 + w2) for K^-1's last row w.
struct ViewRays {
  Eigen::Matrix3d m;
  Eigen::Vector3d depth_row;
  Eigen::Vector3d center;
  double mean_focal = 1;

  explicit ViewRays(const StrechaCamera& camera) {
    const Eigen::Matrix3d k_inverse = camera.K.inverse();
    m = camera.R * k_inverse;
    depth_row = k_inverse.row(2).transpose();
    center = camera.C;
    mean_focal = 0.5 * (camera.K(0, 0) + camera.K(1, 1));
  }

  Ray At(double u, double v) const {
    Ray ray;
    ray.origin = center;
    ray.direction = u * m.col(0) + v * m.col(1) + m.col(2);
    return ray;
  }

  // Camera-frame z of the point at parameter t on the ray At(u, v).
  double Depth(double t, double u, double v) const {
    return t * (u * depth_row.x() + v * depth_row.y() + depth_row.z());
  }
};

// `surface` (optional) receives the surface hit, -1 for the sky.
std::array<float, 3> ShadeRay(const SyntheticWorld& world, const ViewRays& view, double u, double v,
                              double sample_spacing_px, const int* boxes, int num_boxes, int* surface) {
  const Ray ray = view.At(u, v);
  SurfaceHit hit;
  const bool found = world.Intersect(ray, &hit, boxes, num_boxes);
  if (surface != nullptr) *surface = found ? hit.surface : -1;
  if (!found) return world.SkyColor();
  // Footprint of one sample on the surface: (depth / f) * spacing across the ray,
  // stretched by 1 / cos(incidence) along it; the geometric mean of the two is used.
  const double depth = view.Depth(hit.t, u, v);
  const Eigen::Vector3d& normal = world.surfaces()[hit.surface].normal;
  const double cosine = std::abs(normal.dot(ray.direction)) / ray.direction.norm();
  const double footprint = depth * sample_spacing_px / view.mean_focal / std::sqrt(std::max(cosine, 0.05));
  return world.Shade(hit, footprint);
}

// Pixel rectangle that contains a box's image, or the whole image if a corner is behind
// (or nearly at) the camera.
struct ScreenBounds {
  double x0, y0, x1, y1;
};

ScreenBounds BoxBounds(const Box& box, const StrechaCamera& camera) {
  const ScreenBounds everything = {-1e30, -1e30, 1e30, 1e30};
  ScreenBounds bounds = {1e30, 1e30, -1e30, -1e30};
  for (const Eigen::Vector3d& corner : box.Corners()) {
    const Eigen::Vector3d x = camera.K * (camera.R.transpose() * (corner - camera.C));
    if (!(x.z() > 1e-3)) return everything;
    const double u = x.x() / x.z(), v = x.y() / x.z();
    bounds = {std::min(bounds.x0, u), std::min(bounds.y0, v), std::max(bounds.x1, u),
              std::max(bounds.y1, v)};
  }
  // Margin for rounding.
  return {bounds.x0 - 1, bounds.y0 - 1, bounds.x1 + 1, bounds.y1 + 1};
}

// The boxes a ray through a pixel may hit: those whose screen bounds overlap the pixel's row,
// then its column (the renderer and the depth pass test only these).
class BoxCulling {
 public:
  BoxCulling(const SyntheticWorld& world, const StrechaCamera& camera) {
    for (const Box& box : world.boxes()) bounds_.push_back(BoxBounds(box, camera));
  }
  // Boxes whose image overlaps pixel row y.
  void Row(int y, std::vector<int>* out) const {
    out->clear();
    for (size_t b = 0; b < bounds_.size(); ++b) {
      if (bounds_[b].y0 <= y + 1 && bounds_[b].y1 >= y) out->push_back(static_cast<int>(b));
    }
  }
  // Those of `row` that also overlap column x.
  void Pixel(const std::vector<int>& row, int x, std::vector<int>* out) const {
    out->clear();
    for (int b : row) {
      if (bounds_[b].x0 <= x + 1 && bounds_[b].x1 >= x) out->push_back(b);
    }
  }

 private:
  std::vector<ScreenBounds> bounds_;
};

}  // namespace

Ray PixelRay(const StrechaCamera& camera, double u, double v) { return ViewRays(camera).At(u, v); }

Eigen::Vector2d UndistortRadial(double k1, const Eigen::Vector2d& distorted) {
  Eigen::Vector2d x = distorted;
  for (int i = 0; i < 30; ++i) x = distorted / (1 + k1 * x.squaredNorm());
  return x;
}

std::array<float, 3> RenderSample(const SyntheticWorld& world, const StrechaCamera& camera,
                                  double u, double v, double sample_spacing_px) {
  return ShadeRay(world, ViewRays(camera), u, v, sample_spacing_px, nullptr, -1, nullptr);
}

Image RenderView(const SyntheticWorld& world, const StrechaCamera& camera, int supersampling,
                 int num_threads) {
  PROJ_REQUIRE(camera.width > 0 && camera.height > 0, "synthetic render: bad image size");
  PROJ_REQUIRE(supersampling >= 1 && supersampling <= 8, "synthetic render: supersampling must be in [1, 8]");
  const ViewRays view(camera);
  const BoxCulling culling(world, camera);
  const int width = camera.width, height = camera.height;

  // Pass 1: one ray through each pixel centre, textures filtered over one pixel.
  std::vector<float> rgb(static_cast<size_t>(width) * height * 3);
  std::vector<int> surface(static_cast<size_t>(width) * height);
  ParallelFor(0, height, num_threads, [&](int y, int /*worker*/) {
    std::vector<int> row, boxes;
    culling.Row(y, &row);
    for (int x = 0; x < width; ++x) {
      culling.Pixel(row, x, &boxes);
      const size_t index = static_cast<size_t>(y) * width + x;
      const auto color = ShadeRay(world, view, x + 0.5, y + 0.5, 1.0, boxes.data(),
                                  static_cast<int>(boxes.size()), &surface[index]);
      for (int c = 0; c < 3; ++c) rgb[3 * index + c] = color[c];
    }
  });

  // Pass 2: pixels on a geometric edge (a 4-neighbour sees another surface) become the mean
  // of supersampling x supersampling rays spread over the pixel.
  Image image;
  image.width = width;
  image.height = height;
  image.channels = 3;
  image.data.resize(rgb.size());
  const int s = supersampling;
  ParallelFor(0, height, num_threads, [&](int y, int /*worker*/) {
    std::vector<int> row, boxes;
    culling.Row(y, &row);
    for (int x = 0; x < width; ++x) {
      const size_t index = static_cast<size_t>(y) * width + x;
      const int id = surface[index];
      const bool edge = s > 1 && ((x > 0 && surface[index - 1] != id) ||
                                  (x + 1 < width && surface[index + 1] != id) ||
                                  (y > 0 && surface[index - width] != id) ||
                                  (y + 1 < height && surface[index + width] != id));
      float color[3] = {rgb[3 * index], rgb[3 * index + 1], rgb[3 * index + 2]};
      if (edge) {
        culling.Pixel(row, x, &boxes);
        color[0] = color[1] = color[2] = 0;
        for (int sy = 0; sy < s; ++sy) {
          for (int sx = 0; sx < s; ++sx) {
            const auto sample = ShadeRay(world, view, x + (sx + 0.5) / s, y + (sy + 0.5) / s, 1.0,
                                         boxes.data(), static_cast<int>(boxes.size()), nullptr);
            for (int c = 0; c < 3; ++c) color[c] += sample[c] / (s * s);
          }
        }
      }
      for (int c = 0; c < 3; ++c) {
        image.data[3 * index + c] = static_cast<uint8_t>(std::clamp(color[c], 0.0f, 255.0f) + 0.5f);
      }
    }
  });
  return image;
}

FloatRaster RenderDepth(const SyntheticWorld& world, const StrechaCamera& camera, int num_threads,
                        const ImagePlanePoint& image_plane, FloatRaster* normals) {
  PROJ_REQUIRE(camera.width > 0 && camera.height > 0, "synthetic depth: bad image size");
  const ViewRays view(camera);
  const BoxCulling culling(world, camera);  // valid for the pinhole rays only
  FloatRaster depth(camera.width, camera.height, 1);
  if (normals) *normals = FloatRaster(camera.width, camera.height, 3);
  ParallelFor(0, camera.height, num_threads, [&](int y, int /*worker*/) {
    std::vector<int> row, boxes;
    culling.Row(y, &row);
    for (int x = 0; x < camera.width; ++x) {
      const double u = x + 0.5, v = y + 0.5;
      SurfaceHit hit;
      Ray ray;
      if (image_plane) {
        // Direction of unit camera-frame depth, so t is the depth; every box is tested.
        const Eigen::Vector2d point = image_plane(u, v);
        ray = Ray{camera.C, camera.R * Eigen::Vector3d(point.x(), point.y(), 1)};
        if (!world.Intersect(ray, &hit)) continue;
        depth.At(x, y) = static_cast<float>(hit.t);
      } else {
        culling.Pixel(row, x, &boxes);
        ray = view.At(u, v);
        if (!world.Intersect(ray, &hit, boxes.data(), static_cast<int>(boxes.size()))) continue;
        depth.At(x, y) = static_cast<float>(view.Depth(hit.t, u, v));
      }
      if (normals) {
        // In the camera frame, turned towards the camera (free-standing walls show both sides).
        Eigen::Vector3d normal = world.surfaces()[hit.surface].normal;
        if (normal.dot(ray.direction) > 0) normal = -normal;
        normal = camera.R.transpose() * normal;
        for (int c = 0; c < 3; ++c) normals->At(x, y, c) = static_cast<float>(normal[c]);
      }
    }
  });
  return depth;
}

}  // namespace proj::synthetic
