// Kernels of the GPU bundle adjuster (cuda/ba/bundle_adjuster_gpu.h), one launcher per step;
// each launcher enqueues on `stream` and checks the launch. Observations are indexed by their
// position in image order (BaLayout::order), so the observations of one image, and mostly of
// one warp, are contiguous: per-image and per-camera sums are reduced across the warp before
// one atomic add per warp.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/ba/ba_problem.h"
#include "cuda/ba/ba_residual.h"

namespace proj::cuda {

// Raw device pointers of one solve; passed to kernels by value.
struct BaDeviceData {
  int num_images = 0, num_cameras = 0, num_points = 0, num_observations = 0;
  int camera_offset = 0;  // camera-side vector: 6 per image, then kBaMaxCameraParams per camera
  int num_camera_side = 0;
  BaLoss loss = BaLoss::kTrivial;
  double loss_scale = 1;
  const int* camera_models = nullptr;
  const uint8_t* camera_mask = nullptr;
  const int* image_cameras = nullptr;
  const uint8_t* pose_mask = nullptr;
  const uint8_t* point_constant = nullptr;
  const int* observation_images = nullptr;  // by position
  const int* observation_points = nullptr;  // by position
  const double* observations_px = nullptr;  // by position
  const int* point_offsets = nullptr;
  const int* point_positions = nullptr;
  const double* poses = nullptr;  // current parameters
  const double* camera_params = nullptr;
  const double* points = nullptr;
  BaObservationLinearization* linearization = nullptr;  // by position
  double* gradient_c = nullptr;
  double* gradient_p = nullptr;
  double* hessian_pose = nullptr;    // 36 per image: blocks of J^T J
  double* hessian_camera = nullptr;  // 25 per camera
  double* hessian_point = nullptr;   // 9 per point
  double* point_inverse = nullptr;   // 9 per point: (W_p + D_p)^-1
  double* preconditioner_pose = nullptr;
  double* preconditioner_camera = nullptr;
  double* damping_c = nullptr;
  int* invalid = nullptr;  // set to 1 by a kernel that meets an invalid observation or block
};

// cost[0] += sum of 0.5 rho; residuals, Jacobians, g_c, J^T J pose and camera blocks. The
// accumulators must be zeroed first.
void LaunchLinearize(const BaDeviceData& d, double* cost, cudaStream_t stream);
// g_p and J^T J point blocks.
void LaunchPointBlocks(const BaDeviceData& d, cudaStream_t stream);
// out (as unsigned bits of a non-negative double) = max(out, max |v|).
void LaunchMaxAbs(const double* v, int n, unsigned long long* out, cudaStream_t stream);
// damping_c; preconditioner blocks = J^T J blocks + damping; b = -g_c.
void LaunchInitStep(const BaDeviceData& d, double mu, double* b, cudaStream_t stream);
// point_inverse = (W_p + D_p)^-1; y = point_inverse g_p.
void LaunchPointInverse(const BaDeviceData& d, double mu, double* y, cudaStream_t stream);
// b += J_c^T J_p y; preconditioner blocks -= per-observation Schur terms.
void LaunchRhsAndPreconditioner(const BaDeviceData& d, const double* y, double* b,
                                cudaStream_t stream);
// Inverts the preconditioner blocks in place.
void LaunchInvertPreconditioner(const BaDeviceData& d, cudaStream_t stream);
// u = J_c v (2 per observation).
void LaunchJcV(const BaDeviceData& d, const double* v, double* u, cudaStream_t stream);
// out_p = sign * point_inverse_p (add_p + sum J_p^T u); add may be null.
void LaunchPointSolve(const BaDeviceData& d, const double* u, const double* add, double sign,
                      double* out, cudaStream_t stream);
// q = D_c v + J_c^T (u - J_p t).
void LaunchSchurScatter(const BaDeviceData& d, const double* v, const double* u, const double* t,
                        double* q, cudaStream_t stream);
// z = M^-1 r (block-Jacobi); sums[0] += r . r, sums[1] += r . z, sums[2] -= x . (b + r).
void LaunchPrecondition(const BaDeviceData& d, const double* r, const double* x, const double* b,
                        double* z, double* sums, cudaStream_t stream);
// x += alpha p; r -= alpha q.
void LaunchCgUpdate(int n, double alpha, const double* p, const double* q, double* x, double* r,
                    cudaStream_t stream);
// p = z + beta p.
void LaunchCgDirection(int n, double beta, const double* z, double* p, cudaStream_t stream);
// out[0] += a . b.
void LaunchDot(const double* a, const double* b, int n, double* out, cudaStream_t stream);
// Zeroes step coordinates held constant.
void LaunchMaskStep(const BaDeviceData& d, double* delta_c, cudaStream_t stream);
// out[0] += -(r . e + e . e / 2) with e = u + J_p dp.
void LaunchModelChange(const BaDeviceData& d, const double* u, const double* delta_p, double* out,
                       cudaStream_t stream);
// Candidate parameters: poses (UpdatePose), camera parameters and points (added).
void LaunchCandidate(const BaDeviceData& d, const double* delta_c, const double* delta_p,
                     double* poses, double* camera_params, double* points, cudaStream_t stream);
// cost[0] += 0.5 rho over observations at the given parameters.
void LaunchCost(const BaDeviceData& d, const double* poses, const double* camera_params,
                const double* points, double* cost, cudaStream_t stream);

}  // namespace proj::cuda
