#include "sfm/undistort/undistorted_camera.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/check.h"

namespace proj {
namespace {

// The scale of a size from the undistorted image of its edges along one axis: `inner_low` is
// the innermost undistorted position of the low edge (left or top), `inner_high` that of the
// high edge, `centre` the principal point, `size` the original extent. The scaled image spans
// centre - centre * s .. centre + (size - centre) * s, which must stay within the inner edges.
double NoBlankScale(double inner_low, double inner_high, double centre, double size) {
  if (!(centre > 0 && centre < size)) return 1;  // principal point outside: keep the size
  return std::min((centre - inner_low) / centre, (inner_high - centre) / (size - centre));
}

// A PINHOLE camera given a new size, its principal point scaled with each axis (so it keeps
// its relative position) and, for a zoom (COLMAP's Camera::Rescale), its focal lengths too.
void ResizePinhole(int width, int height, bool scale_focal, Camera* pinhole) {
  const double scale_x = static_cast<double>(width) / pinhole->width;
  const double scale_y = static_cast<double>(height) / pinhole->height;
  if (scale_focal) {
    pinhole->params[0] *= scale_x;
    pinhole->params[1] *= scale_y;
  }
  pinhole->params[2] *= scale_x;
  pinhole->params[3] *= scale_y;
  pinhole->width = width;
  pinhole->height = height;
}

}  // namespace

void UndistortCameraOptions::Check() const {
  PROJ_REQUIRE(max_image_size_px >= 0, "max image size must be >= 0 (0 keeps the size), not " << max_image_size_px);
  PROJ_REQUIRE(min_scale > 0 && min_scale <= max_scale,
               "undistortion scale bounds must satisfy 0 < min_scale <= max_scale");
}

Camera UndistortCamera(const Camera& camera, const UndistortCameraOptions& options) {
  options.Check();
  PROJ_CHECK(camera.width > 0 && camera.height > 0, "camera without a size");
  const std::vector<int> focal = camera.FocalIndices();
  const Eigen::Vector2d principal_point = camera.PrincipalPoint();
  Camera pinhole;
  pinhole.model = CameraModelId::kPinhole;
  pinhole.width = camera.width;
  pinhole.height = camera.height;
  pinhole.params = {camera.params[focal.front()], camera.params[focal.back()], principal_point.x(),
                    principal_point.y()};

  // Innermost undistorted position of each edge, sampled at every pixel boundary.
  double left = -std::numeric_limits<double>::infinity();
  double right = std::numeric_limits<double>::infinity();
  double top = left;
  double bottom = right;
  for (int y = 0; y <= camera.height; ++y) {
    left = std::max(left, UndistortPixel(camera, pinhole, Eigen::Vector2d(0, y)).x());
    right = std::min(right, UndistortPixel(camera, pinhole, Eigen::Vector2d(camera.width, y)).x());
  }
  for (int x = 0; x <= camera.width; ++x) {
    top = std::max(top, UndistortPixel(camera, pinhole, Eigen::Vector2d(x, 0)).y());
    bottom = std::min(bottom, UndistortPixel(camera, pinhole, Eigen::Vector2d(x, camera.height)).y());
  }
  const double scale_x = std::clamp(NoBlankScale(left, right, principal_point.x(), camera.width),
                                    options.min_scale, options.max_scale);
  const double scale_y = std::clamp(NoBlankScale(top, bottom, principal_point.y(), camera.height),
                                    options.min_scale, options.max_scale);
  // Rounded down (with slack for the rounding of the sums above): a size rounded up would
  // reach a fraction of a pixel past the valid region.
  ResizePinhole(std::max(1, static_cast<int>(std::floor(scale_x * camera.width + 1e-6))),
                std::max(1, static_cast<int>(std::floor(scale_y * camera.height + 1e-6))),
                /*scale_focal=*/false, &pinhole);

  const int largest = std::max(pinhole.width, pinhole.height);
  if (options.max_image_size_px > 0 && largest > options.max_image_size_px) {
    const double shrink = static_cast<double>(options.max_image_size_px) / largest;
    ResizePinhole(std::max(1, static_cast<int>(std::lround(shrink * pinhole.width))),
                  std::max(1, static_cast<int>(std::lround(shrink * pinhole.height))),
                  /*scale_focal=*/true, &pinhole);
  }
  return pinhole;
}

Eigen::Vector2d UndistortPixel(const Camera& camera, const Camera& pinhole, const Eigen::Vector2d& uv) {
  const Eigen::Vector2d xy = camera.PixelToNormalized(uv);
  Eigen::Vector2d undistorted;
  PinholeModel::NormalizedToPixel(pinhole.params.data(), xy.x(), xy.y(), undistorted.data());
  return undistorted;
}

Eigen::Vector2d DistortPixel(const Camera& pinhole, const Camera& camera, const Eigen::Vector2d& uv) {
  Eigen::Vector2d xy;
  PinholeModel::PixelToNormalized(pinhole.params.data(), uv.data(), xy.data());
  Eigen::Vector2d distorted;
  camera.Project(Eigen::Vector3d(xy.x(), xy.y(), 1), &distorted);  // z = 1: always in front
  return distorted;
}

}  // namespace proj
