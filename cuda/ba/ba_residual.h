// Per-observation residual, Jacobians, robust loss and parameter updates of the bundle
// adjustment solver (conventions in cuda/ba/ba_types.h). Everything here is PROJ_HOST_DEVICE:
// the CPU solver and the CUDA kernels call these same functions, and the projection itself is
// the camera models' ProjectPoint (geometry/camera/camera_models.h), differentiated with
// forward-mode dual numbers, so there is one definition of the camera model for Ceres, the CPU
// solver and the GPU. Host-compilable header (no CUDA includes).
#pragma once

#include <math.h>

#include "core/host_device.h"
#include "cuda/ba/ba_types.h"
#include "geometry/camera/camera_models.h"

namespace proj::cuda {

// Forward-mode dual number with N derivative components.
template <int N>
struct Dual {
  double v = 0;
  double d[N] = {};
  Dual() = default;
  PROJ_HOST_DEVICE explicit Dual(double value) : v(value) {}
};

template <int N>
PROJ_HOST_DEVICE inline Dual<N> operator+(const Dual<N>& a, const Dual<N>& b) {
  Dual<N> r(a.v + b.v);
  for (int k = 0; k < N; ++k) r.d[k] = a.d[k] + b.d[k];
  return r;
}
template <int N>
PROJ_HOST_DEVICE inline Dual<N> operator-(const Dual<N>& a, const Dual<N>& b) {
  Dual<N> r(a.v - b.v);
  for (int k = 0; k < N; ++k) r.d[k] = a.d[k] - b.d[k];
  return r;
}
template <int N>
PROJ_HOST_DEVICE inline Dual<N> operator*(const Dual<N>& a, const Dual<N>& b) {
  Dual<N> r(a.v * b.v);
  for (int k = 0; k < N; ++k) r.d[k] = a.d[k] * b.v + a.v * b.d[k];
  return r;
}
template <int N>
PROJ_HOST_DEVICE inline Dual<N> operator/(const Dual<N>& a, const Dual<N>& b) {
  const double inv = 1.0 / b.v;
  Dual<N> r(a.v * inv);
  for (int k = 0; k < N; ++k) r.d[k] = (a.d[k] - r.v * b.d[k]) * inv;
  return r;
}
template <int N>
PROJ_HOST_DEVICE inline bool operator>(const Dual<N>& a, const Dual<N>& b) {
  return a.v > b.v;
}

// Linearisation of one observation: residual and Jacobians, already multiplied by
// sqrt(rho'(s)) (Ceres' corrector; rho'' <= 0 for all our losses, so this is all it does).
// Columns of constant parameters are zero.
struct BaObservationLinearization {
  double residual[2];
  double jac_pose[2][kBaPoseDof];
  double jac_camera[2][kBaMaxCameraParams];
  double jac_point[2][3];
};

// rho(s) and rho'(s) of the loss (definitions in BaLoss).
PROJ_HOST_DEVICE inline void EvaluateBaLoss(BaLoss loss, double scale, double s, double* rho,
                                            double* rho1) {
  const double b = scale * scale;
  if (loss == BaLoss::kHuber && s > b) {
    const double r = sqrt(s);
    *rho = 2 * scale * r - b;
    *rho1 = scale / r;
  } else if (loss == BaLoss::kCauchy) {
    const double sum = 1 + s / b;
    *rho = b * log(sum);
    *rho1 = 1 / sum;
  } else {
    *rho = s;
    *rho1 = 1;
  }
}

// x_out = q * x (q unit, Eigen storage order x, y, z, w).
PROJ_HOST_DEVICE inline void RotateByQuaternion(const double* q, const double* x, double* out) {
  // t = 2 v x X; out = X + w t + v x t.
  const double t0 = 2 * (q[1] * x[2] - q[2] * x[1]);
  const double t1 = 2 * (q[2] * x[0] - q[0] * x[2]);
  const double t2 = 2 * (q[0] * x[1] - q[1] * x[0]);
  out[0] = x[0] + q[3] * t0 + (q[1] * t2 - q[2] * t1);
  out[1] = x[1] + q[3] * t1 + (q[2] * t0 - q[0] * t2);
  out[2] = x[2] + q[3] * t2 + (q[0] * t1 - q[1] * t0);
}

// Pixel of a world point, or false when it is not in front of the camera.
PROJ_HOST_DEVICE inline bool ProjectWorldPoint(int model, const double* params, const double* pose,
                                               const double* point, double* uv) {
  double point_cam[3];
  RotateByQuaternion(pose, point, point_cam);
  for (int k = 0; k < 3; ++k) point_cam[k] += pose[4 + k];
  bool in_front = false;
  auto project = [&](auto m) {
    in_front = ProjectPoint<decltype(m)>(params, point_cam, uv);
  };
  return VisitCameraModelHostDevice(model, project) && in_front;
}

// Robustified cost 0.5 rho(|r|^2) of one observation; false when not in front.
PROJ_HOST_DEVICE inline bool ObservationCost(int model, const double* params, const double* pose,
                                             const double* point, const double* observed,
                                             BaLoss loss, double loss_scale, double* cost) {
  double uv[2];
  if (!ProjectWorldPoint(model, params, pose, point, uv)) return false;
  const double rx = uv[0] - observed[0], ry = uv[1] - observed[1];
  double rho, rho1;
  EvaluateBaLoss(loss, loss_scale, rx * rx + ry * ry, &rho, &rho1);
  *cost = 0.5 * rho;
  return true;
}

// Residual and Jacobians (tangent parametrisation of ba_types.h) of one observation, scaled
// by sqrt(rho'); `cost` gets 0.5 rho. Masks as in BaProblem. False when not in front.
PROJ_HOST_DEVICE inline bool LinearizeObservation(int model, const double* params,
                                                  uint8_t camera_mask, const double* pose,
                                                  uint8_t pose_mask, const double* point,
                                                  bool point_constant, const double* observed,
                                                  BaLoss loss, double loss_scale,
                                                  BaObservationLinearization* out, double* cost) {
  constexpr int kN = 3 + kBaMaxCameraParams;  // derivatives: camera-frame point, parameters
  using D = Dual<kN>;
  double rotated[3];
  RotateByQuaternion(pose, point, rotated);
  D point_cam[3], params_dual[kBaMaxCameraParams], uv[2];
  for (int k = 0; k < 3; ++k) {
    point_cam[k] = D(rotated[k] + pose[4 + k]);
    point_cam[k].d[k] = 1;
  }
  for (int k = 0; k < kBaMaxCameraParams; ++k) {
    params_dual[k] = D(params[k]);
    params_dual[k].d[3 + k] = 1;
  }
  bool in_front = false;
  auto project = [&](auto m) {
    in_front = ProjectPoint<decltype(m)>(params_dual, point_cam, uv);
  };
  if (!VisitCameraModelHostDevice(model, project) || !in_front) return false;

  const double rx = uv[0].v - observed[0], ry = uv[1].v - observed[1];
  double rho, rho1;
  EvaluateBaLoss(loss, loss_scale, rx * rx + ry * ry, &rho, &rho1);
  *cost = 0.5 * rho;
  const double w = sqrt(rho1);
  out->residual[0] = w * rx;
  out->residual[1] = w * ry;
  // d(point_cam)/d(rotation vector) = -[R X]x.
  const double a0 = rotated[0], a1 = rotated[1], a2 = rotated[2];
  const double skew[3][3] = {{0, a2, -a1}, {-a2, 0, a0}, {a1, -a0, 0}};
  double rotation[3][3];  // columns R e_k, for d(point_cam)/d(point) = R
  for (int k = 0; k < 3; ++k) {
    const double e[3] = {k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0};
    double column[3];
    RotateByQuaternion(pose, e, column);
    for (int j = 0; j < 3; ++j) rotation[j][k] = column[j];
  }
  for (int r = 0; r < 2; ++r) {
    const double* duv = uv[r].d;  // d uv_r / d point_cam (3), d uv_r / d params
    for (int k = 0; k < 3; ++k) {
      double jw = 0, jx = 0;
      for (int j = 0; j < 3; ++j) {
        jw += duv[j] * skew[j][k];
        jx += duv[j] * rotation[j][k];
      }
      out->jac_pose[r][k] = (pose_mask >> k) & 1 ? 0.0 : w * jw;
      out->jac_pose[r][3 + k] = (pose_mask >> (3 + k)) & 1 ? 0.0 : w * duv[k];
      out->jac_point[r][k] = point_constant ? 0.0 : w * jx;
    }
    for (int k = 0; k < kBaMaxCameraParams; ++k) {
      out->jac_camera[r][k] = (camera_mask >> k) & 1 ? 0.0 : w * duv[3 + k];
    }
  }
  return true;
}

// pose <- (exp([w]x) q, t + dt) for delta = (w, dt); the quaternion is renormalised.
PROJ_HOST_DEVICE inline void UpdatePose(const double* pose, const double* delta, double* out) {
  const double theta2 = delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2];
  const double theta = sqrt(theta2);
  const double s = theta > 1e-12 ? sin(0.5 * theta) / theta : 0.5;
  const double dq[4] = {s * delta[0], s * delta[1], s * delta[2], cos(0.5 * theta)};
  const double* q = pose;
  double r[4];  // dq * q
  r[3] = dq[3] * q[3] - (dq[0] * q[0] + dq[1] * q[1] + dq[2] * q[2]);
  r[0] = dq[3] * q[0] + q[3] * dq[0] + (dq[1] * q[2] - dq[2] * q[1]);
  r[1] = dq[3] * q[1] + q[3] * dq[1] + (dq[2] * q[0] - dq[0] * q[2]);
  r[2] = dq[3] * q[2] + q[3] * dq[2] + (dq[0] * q[1] - dq[1] * q[0]);
  const double norm = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; ++k) out[k] = r[k] / norm;
  for (int k = 0; k < 3; ++k) out[4 + k] = pose[4 + k] + delta[3 + k];
}

// In-place inverse of a symmetric positive definite n x n matrix (row-major) by Cholesky;
// false (matrix untouched) when not positive definite.
template <int N>
PROJ_HOST_DEVICE inline bool InvertSymmetricPositive(double* a) {
  double l[N][N] = {};
  for (int j = 0; j < N; ++j) {
    double d = a[j * N + j];
    for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 0)) return false;
    l[j][j] = sqrt(d);
    for (int i = j + 1; i < N; ++i) {
      double s = a[i * N + j];
      for (int k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
      l[i][j] = s / l[j][j];
    }
  }
  double inv_l[N][N] = {};  // L^-1, lower triangular
  for (int j = 0; j < N; ++j) {
    inv_l[j][j] = 1 / l[j][j];
    for (int i = j + 1; i < N; ++i) {
      double s = 0;
      for (int k = j; k < i; ++k) s -= l[i][k] * inv_l[k][j];
      inv_l[i][j] = s / l[i][i];
    }
  }
  for (int i = 0; i < N; ++i) {  // A^-1 = L^-T L^-1
    for (int j = 0; j <= i; ++j) {
      double s = 0;
      for (int k = i; k < N; ++k) s += inv_l[k][i] * inv_l[k][j];
      a[i * N + j] = s;
      a[j * N + i] = s;
    }
  }
  return true;
}

// Levenberg-Marquardt damping added to a diagonal entry h of J^T J, as Ceres computes it:
// mu times the entry of its Jacobi-scaled J^T J (scale 1 / (1 + sqrt(h))) clamped to
// [1e-6, 1e32], scaled back. mu = 1 / trust region radius.
PROJ_HOST_DEVICE inline double LmDamping(double h, double mu) {
  const double scale2 = (1 + sqrt(h)) * (1 + sqrt(h));
  return mu * fmin(fmax(h / scale2, 1e-6), 1e32) * scale2;
}

}  // namespace proj::cuda
