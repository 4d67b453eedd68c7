// Prior terms of the bundle adjustment solver (conventions in cuda/ba/ba_types.h): residual,
// Jacobian in the pose tangent space and their contributions to the normal equations, the
// Schur product and the model decrease. PROJ_HOST_DEVICE: the CPU solver and the CUDA kernels
// call these same functions. Host-compilable header.
#pragma once

#include <stdint.h>

#include "core/host_device.h"
#include "cuda/ba/ba_types.h"
#include "cuda/ba/ba_residual.h"

namespace proj::cuda {

// A position prior linearised at the current pose: r = W (C - c) and dr / d(w, dt) (3 x 6),
// columns of constant coordinates zero.
struct BaPositionPriorLinearization {
  double residual[3];
  double jacobian[3][kBaPoseDof];
};

// Camera centre C = -R^T t of a pose (kBaPoseStride layout).
PROJ_HOST_DEVICE inline void PoseCenter(const double* pose, double* center) {
  const double inverse[4] = {-pose[0], -pose[1], -pose[2], pose[3]};
  RotateByQuaternion(inverse, pose + 4, center);
  for (int k = 0; k < 3; ++k) center[k] = -center[k];
}

// r = W (v - m) for 3-vectors v, m and W 3 x 3 (row-major).
PROJ_HOST_DEVICE inline void WeightedDifference(const double* value, const double* mean,
                                                const double* weight, double* residual) {
  const double d[3] = {value[0] - mean[0], value[1] - mean[1], value[2] - mean[2]};
  for (int r = 0; r < 3; ++r) {
    residual[r] = weight[3 * r] * d[0] + weight[3 * r + 1] * d[1] + weight[3 * r + 2] * d[2];
  }
}

// r = W (C - c).
PROJ_HOST_DEVICE inline void PositionPriorResidual(const double* pose, const double* prior_center,
                                                   const double* weight, double* residual) {
  double center[3];
  PoseCenter(pose, center);
  WeightedDifference(center, prior_center, weight, residual);
}

// 0.5 |W (C - c)|^2 (0 when W is zero).
PROJ_HOST_DEVICE inline double PositionPriorCost(const double* pose, const double* prior_center,
                                                 const double* weight) {
  double r[3];
  PositionPriorResidual(pose, prior_center, weight, r);
  return 0.5 * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}

// Residual and Jacobian. With R <- exp([w]x) R and t <- t + dt (ba_types.h), the centre moves
// by dC = -R^T [t]x w - R^T dt, so the columns are W R^T (e_k x t) and -W R^T e_k.
PROJ_HOST_DEVICE inline void LinearizePositionPrior(const double* pose, uint8_t pose_mask,
                                                    const double* prior_center,
                                                    const double* weight,
                                                    BaPositionPriorLinearization* out) {
  PositionPriorResidual(pose, prior_center, weight, out->residual);
  const double inverse[4] = {-pose[0], -pose[1], -pose[2], pose[3]};
  const double* t = pose + 4;
  for (int k = 0; k < 3; ++k) {
    const double e[3] = {k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0};
    const double e_cross_t[3] = {e[1] * t[2] - e[2] * t[1], e[2] * t[0] - e[0] * t[2],
                                 e[0] * t[1] - e[1] * t[0]};
    double rotation_column[3], translation_column[3];
    RotateByQuaternion(inverse, e_cross_t, rotation_column);
    RotateByQuaternion(inverse, e, translation_column);
    for (int r = 0; r < 3; ++r) {
      double jw = 0, jt = 0;
      for (int j = 0; j < 3; ++j) {
        jw += weight[3 * r + j] * rotation_column[j];
        jt -= weight[3 * r + j] * translation_column[j];
      }
      out->jacobian[r][k] = (pose_mask >> k) & 1 ? 0.0 : jw;
      out->jacobian[r][3 + k] = (pose_mask >> (3 + k)) & 1 ? 0.0 : jt;
    }
  }
}

// gradient (6) += J^T r; hessian (6 x 6, row-major, full) += J^T J.
PROJ_HOST_DEVICE inline void AddPositionPriorNormalEquations(const BaPositionPriorLinearization& l,
                                                             double* gradient, double* hessian) {
  for (int a = 0; a < kBaPoseDof; ++a) {
    gradient[a] += l.jacobian[0][a] * l.residual[0] + l.jacobian[1][a] * l.residual[1] +
                   l.jacobian[2][a] * l.residual[2];
    for (int b = 0; b < kBaPoseDof; ++b) {
      hessian[a * kBaPoseDof + b] += l.jacobian[0][a] * l.jacobian[0][b] +
                                     l.jacobian[1][a] * l.jacobian[1][b] +
                                     l.jacobian[2][a] * l.jacobian[2][b];
    }
  }
}

// e = J v for a pose step v (6).
PROJ_HOST_DEVICE inline void PositionPriorJv(const BaPositionPriorLinearization& l, const double* v,
                                             double* e) {
  for (int r = 0; r < 3; ++r) {
    double s = 0;
    for (int a = 0; a < kBaPoseDof; ++a) s += l.jacobian[r][a] * v[a];
    e[r] = s;
  }
}

// out (6) += J^T J v: the prior's term of the Schur product.
PROJ_HOST_DEVICE inline void AddPositionPriorProduct(const BaPositionPriorLinearization& l,
                                                     const double* v, double* out) {
  double e[3];
  PositionPriorJv(l, v, e);
  for (int a = 0; a < kBaPoseDof; ++a) {
    out[a] += l.jacobian[0][a] * e[0] + l.jacobian[1][a] * e[1] + l.jacobian[2][a] * e[2];
  }
}

// Decrease of the linearised prior term for the pose step v: -(r . e + e . e / 2), e = J v.
PROJ_HOST_DEVICE inline double PositionPriorModelChange(const BaPositionPriorLinearization& l,
                                                        const double* v) {
  double e[3];
  PositionPriorJv(l, v, e);
  return -(l.residual[0] * e[0] + l.residual[1] * e[1] + l.residual[2] * e[2] +
           0.5 * (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]));
}

// Point prior (a ground control point): r = W (X - x). A point steps additively, so its
// Jacobian is W itself (zero for a constant point: the caller leaves those out).
PROJ_HOST_DEVICE inline double PointPriorCost(const double* point, const double* prior,
                                              const double* weight) {
  double r[3];
  WeightedDifference(point, prior, weight, r);
  return 0.5 * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
}

// gradient (3) += W^T r; hessian (3 x 3, row-major) += W^T W.
PROJ_HOST_DEVICE inline void AddPointPriorNormalEquations(const double* point, const double* prior,
                                                          const double* weight, double* gradient,
                                                          double* hessian) {
  double r[3];
  WeightedDifference(point, prior, weight, r);
  for (int a = 0; a < 3; ++a) {
    gradient[a] += weight[a] * r[0] + weight[3 + a] * r[1] + weight[6 + a] * r[2];
    for (int b = 0; b < 3; ++b) {
      hessian[3 * a + b] += weight[a] * weight[b] + weight[3 + a] * weight[3 + b] +
                            weight[6 + a] * weight[6 + b];
    }
  }
}

// Decrease of the (linear) prior term for the point step v: -(r . e + e . e / 2), e = W v.
PROJ_HOST_DEVICE inline double PointPriorModelChange(const double* point, const double* prior,
                                                     const double* weight, const double* v) {
  double r[3], e[3];
  const double zero[3] = {0, 0, 0};
  WeightedDifference(point, prior, weight, r);
  WeightedDifference(v, zero, weight, e);
  return -(r[0] * e[0] + r[1] * e[1] + r[2] * e[2] + 0.5 * (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]));
}

// Camera parameter prior: residual w (p - m) and cost 0.5 residual^2.
PROJ_HOST_DEVICE inline double CameraPriorResidual(double value, double mean, double weight) {
  return weight * (value - mean);
}
PROJ_HOST_DEVICE inline double CameraPriorCost(double value, double mean, double weight) {
  const double r = CameraPriorResidual(value, mean, weight);
  return 0.5 * r * r;
}

// Its Jacobian for parameter k of a camera with constant mask `camera_mask` (0 when constant).
PROJ_HOST_DEVICE inline double CameraPriorJacobian(uint8_t camera_mask, int k, double weight) {
  return (camera_mask >> k) & 1 ? 0.0 : weight;
}

// Decrease of a linearised scalar term with residual r and Jacobian j for a step v of its
// parameter: -(r e + e^2 / 2), e = j v.
PROJ_HOST_DEVICE inline double CameraPriorModelChange(double residual, double jacobian, double v) {
  const double e = jacobian * v;
  return -(residual * e + 0.5 * e * e);
}

}  // namespace proj::cuda
