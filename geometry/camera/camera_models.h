// Camera models as templated static structs (STYLE P8): the same Project<T> serves double,
// ceres::Jet and, compiled by nvcc, the dual numbers of the GPU bundle adjuster
// (cuda/ba/ba_residual.h), so bundle adjustment on CPU and GPU and geometry share one source of
// truth. The templates are PROJ_HOST_DEVICE and must stay free of host-only calls.
//
// Conventions, stated once for the whole project:
//  - Camera frame: x right, y down, z forward (looking direction). A point is in front of the
//    camera when z > 0.
//  - Image coordinates are in pixels, with the centre of the top-left pixel at (0.5, 0.5)
//    (COLMAP's convention); the image spans [0, width] x [0, height].
//  - Parameters are stored in a flat double array, layout fixed per model (below).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "core/check.h"
#include "core/host_device.h"

namespace proj {

enum class CameraModelId { kPinhole = 0, kSimpleRadial = 1, kRadial = 2 };

// Pinhole: fx, fy, cx, cy.
struct PinholeModel {
  static constexpr CameraModelId kId = CameraModelId::kPinhole;
  static constexpr int kNumParams = 4;
  static constexpr const char* kName = "PINHOLE";
  static constexpr std::array<int, 2> kFocalIndices = {0, 1};
  static constexpr std::array<int, 2> kPrincipalPointIndices = {2, 3};
  static constexpr std::array<int, 0> kExtraIndices = {};

  template <typename T>
  PROJ_HOST_DEVICE static void Distort(const T* /*params*/, const T& x, const T& y, T* xd, T* yd) {
    *xd = x;
    *yd = y;
  }
  template <typename T>
  PROJ_HOST_DEVICE static void NormalizedToPixel(const T* params, const T& x, const T& y, T* uv) {
    uv[0] = params[0] * x + params[2];
    uv[1] = params[1] * y + params[3];
  }
  static void PixelToNormalized(const double* params, const double* uv, double* xy) {
    xy[0] = (uv[0] - params[2]) / params[0];
    xy[1] = (uv[1] - params[3]) / params[1];
  }
};

// SimpleRadial: f, cx, cy, k1. Distortion factor 1 + k1 r^2 (COLMAP's SIMPLE_RADIAL).
struct SimpleRadialModel {
  static constexpr CameraModelId kId = CameraModelId::kSimpleRadial;
  static constexpr int kNumParams = 4;
  static constexpr const char* kName = "SIMPLE_RADIAL";
  static constexpr std::array<int, 1> kFocalIndices = {0};
  static constexpr std::array<int, 2> kPrincipalPointIndices = {1, 2};
  static constexpr std::array<int, 1> kExtraIndices = {3};

  template <typename T>
  PROJ_HOST_DEVICE static void Distort(const T* params, const T& x, const T& y, T* xd, T* yd) {
    const T s = T(1) + params[3] * (x * x + y * y);
    *xd = s * x;
    *yd = s * y;
  }
  template <typename T>
  PROJ_HOST_DEVICE static void NormalizedToPixel(const T* params, const T& x, const T& y, T* uv) {
    uv[0] = params[0] * x + params[1];
    uv[1] = params[0] * y + params[2];
  }
  static void PixelToNormalized(const double* params, const double* uv, double* xy) {
    xy[0] = (uv[0] - params[1]) / params[0];
    xy[1] = (uv[1] - params[2]) / params[0];
  }
};

// Radial: f, cx, cy, k1, k2. Distortion factor 1 + k1 r^2 + k2 r^4 (COLMAP's RADIAL).
struct RadialModel {
  static constexpr CameraModelId kId = CameraModelId::kRadial;
  static constexpr int kNumParams = 5;
  static constexpr const char* kName = "RADIAL";
  static constexpr std::array<int, 1> kFocalIndices = {0};
  static constexpr std::array<int, 2> kPrincipalPointIndices = {1, 2};
  static constexpr std::array<int, 2> kExtraIndices = {3, 4};

  template <typename T>
  PROJ_HOST_DEVICE static void Distort(const T* params, const T& x, const T& y, T* xd, T* yd) {
    const T r2 = x * x + y * y;
    const T s = T(1) + params[3] * r2 + params[4] * r2 * r2;
    *xd = s * x;
    *yd = s * y;
  }
  template <typename T>
  PROJ_HOST_DEVICE static void NormalizedToPixel(const T* params, const T& x, const T& y, T* uv) {
    uv[0] = params[0] * x + params[1];
    uv[1] = params[0] * y + params[2];
  }
  static void PixelToNormalized(const double* params, const double* uv, double* xy) {
    xy[0] = (uv[0] - params[1]) / params[0];
    xy[1] = (uv[1] - params[2]) / params[0];
  }
};

// The only list of models; runtime dispatch goes through VisitCameraModel.
using CameraModels = std::tuple<PinholeModel, SimpleRadialModel, RadialModel>;

template <typename F>
void VisitCameraModel(CameraModelId id, F&& f) {
  bool found = false;
  std::apply([&](auto... model) { ((id == decltype(model)::kId && (f(model), found = true)), ...); },
             CameraModels{});
  PROJ_CHECK(found, "unknown camera model id " << static_cast<int>(id));
}

// VisitCameraModel for host and device code alike (no std::apply, no exception): calls
// f(Model{}) for the model with this id and returns true, or returns false for an unknown id.
template <size_t I = 0, typename F>
PROJ_HOST_DEVICE bool VisitCameraModelHostDevice(int id, F& f) {
  if constexpr (I == std::tuple_size<CameraModels>::value) {
    return false;
  } else {
    using Model = typename std::tuple_element<I, CameraModels>::type;
    if (id == static_cast<int>(Model::kId)) {
      f(Model{});
      return true;
    }
    return VisitCameraModelHostDevice<I + 1>(id, f);
  }
}

// Projects a point in the camera frame to pixels. Returns false for points not in front.
template <typename Model, typename T>
PROJ_HOST_DEVICE bool ProjectPoint(const T* params, const T* point_cam, T* uv) {
  if (!(point_cam[2] > T(0))) return false;
  const T x = point_cam[0] / point_cam[2];
  const T y = point_cam[1] / point_cam[2];
  T xd, yd;
  Model::Distort(params, x, y, &xd, &yd);
  Model::NormalizedToPixel(params, xd, yd, uv);
  return true;
}

// Inverse of Distort by fixed-point / Newton iteration on the normalized plane.
template <typename Model>
void UndistortNormalized(const double* params, double xd, double yd, double* x, double* y) {
  double u = xd, v = yd;
  for (int iteration = 0; iteration < 100; ++iteration) {
    // Newton step with a numeric Jacobian of Distort (models here are smooth and cheap).
    double du, dv;
    Model::Distort(params, u, v, &du, &dv);
    const double eps = 1e-9 * std::max(1.0, std::abs(u) + std::abs(v));
    double dux, dvx, duy, dvy;
    Model::Distort(params, u + eps, v, &dux, &dvx);
    Model::Distort(params, u, v + eps, &duy, &dvy);
    const double j00 = (dux - du) / eps, j10 = (dvx - dv) / eps;
    const double j01 = (duy - du) / eps, j11 = (dvy - dv) / eps;
    const double rx = du - xd, ry = dv - yd;
    const double det = j00 * j11 - j01 * j10;
    if (std::abs(det) < 1e-15) break;
    const double step_u = (j11 * rx - j01 * ry) / det;
    const double step_v = (-j10 * rx + j00 * ry) / det;
    u -= step_u;
    v -= step_v;
    if (step_u * step_u + step_v * step_v < 1e-24) break;
  }
  *x = u;
  *y = v;
}

// Pixel to normalized, undistorted image-plane coordinates (the ray is (x, y, 1)).
template <typename Model>
void UnprojectPixel(const double* params, const double* uv, double* xy) {
  double xd[2];
  Model::PixelToNormalized(params, uv, xd);
  UndistortNormalized<Model>(params, xd[0], xd[1], &xy[0], &xy[1]);
}

}  // namespace proj
