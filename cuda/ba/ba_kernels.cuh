// Kernels of the GPU bundle adjuster (cuda/ba/bundle_adjuster_gpu.h), one launcher per step;
// each launcher enqueues on `stream` and checks the launch.
//
// Every sum is made in an order fixed by the problem alone, so two solves of one problem give
// the same bits: no floating-point atomics. Observations are indexed by their position in
// image order (BaLayout::order) and cut into chunks of at most kBaChunkSize positions of one
// image (BaChunks). A chunk kernel runs one block per chunk, one thread per observation, and
// reduces the block's values by warp shuffles and then warps in index order into one partial
// per chunk; a segment kernel then sums the partials of each image (its chunks in order) and
// of each camera (the chunks of its images, in order), one block per segment. Scalar totals
// (costs, dot products) are per-block partials summed by one block (FinalSum). Maxima use
// integer atomics, which are order-independent.
//
// The conjugate gradients run on the device: alpha, beta and the stopping tests are computed
// by single-block kernels into a BaPcgState, and every kernel of an iteration returns at once
// when the state says done, so the host enqueues iterations ahead without waiting for each.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/ba/ba_prior.h"
#include "cuda/ba/ba_types.h"
#include "cuda/ba/ba_residual.h"

namespace proj::cuda {

// Values per chunk of the widest chunk kernel (the linearisation's): the size of
// BaDeviceData::chunk_partials per chunk.
constexpr int kBaMaxChunkWidth = 48;

// Results the host reads back after a step (one copy).
struct BaScalars {
  double cost = 0;
  double model_change = 0;
  double squared_step_norm = 0;
  double squared_parameter_norm = 0;
  unsigned long long max_gradient_bits = 0;  // max |gradient| as the bits of a double
  int invalid = 0;  // set by a kernel that met a point behind a camera or a singular point block
};

// State of the device conjugate gradients (SolvePcg of the CPU solver, step by step).
struct BaPcgState {
  double rz = 0, q_previous = 0, alpha = 0, beta = 0, b_norm = 0;
  double tolerance = 0, eta = 0;  // BaSolverOptions::pcg_relative_tolerance, pcg_eta
  int iteration = 0;
  int done = 0;
};

// Raw device pointers of one solve; passed to kernels by value.
struct BaDeviceData {
  int num_images = 0, num_cameras = 0, num_points = 0, num_observations = 0, num_chunks = 0;
  int num_point_priors = 0;
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
  const int* chunk_starts = nullptr;
  const int* segment_offsets = nullptr;
  const int* segment_chunks = nullptr;
  // Priors (null: none), laid out as in BaProblem.
  const double* prior_centers = nullptr;
  const double* prior_weights = nullptr;
  const double* camera_prior_means = nullptr;
  const double* camera_prior_weights = nullptr;
  const int* point_prior_points = nullptr;
  const double* point_prior_positions = nullptr;
  const double* point_prior_weights = nullptr;
  const double* poses = nullptr;  // current parameters
  const double* camera_params = nullptr;
  const double* points = nullptr;
  BaObservationLinearization* linearization = nullptr;  // by position
  BaPositionPriorLinearization* prior_linearization = nullptr;  // by image, with priors
  double* gradient_c = nullptr;
  double* gradient_p = nullptr;
  double* hessian_pose = nullptr;    // 36 per image: blocks of J^T J (full)
  double* hessian_camera = nullptr;  // 25 per camera
  double* hessian_point = nullptr;   // 9 per point
  double* point_inverse = nullptr;   // 9 per point: (W_p + D_p)^-1
  double* preconditioner_pose = nullptr;   // inverted blocks
  double* preconditioner_camera = nullptr;
  double* damping_c = nullptr;
  double* chunk_partials = nullptr;  // num_chunks x the chunk kernel's width
  double* block_partials = nullptr;  // per-block partial sums
  // num_images + num_cameras (+ num_point_priors for prior terms): per-segment terms of a sum
  double* segment_terms = nullptr;
  BaScalars* scalars = nullptr;
  BaPcgState* pcg = nullptr;
};

// Number of block partials LaunchSquaredNorm, LaunchObservationCost and LaunchModelChange
// write (block_partials must hold that many, and 3 per block of LaunchPcgUpdate).
int BaBlockPartials(const BaDeviceData& d);

// Residuals, Jacobians, gradient, J^T J blocks (pose, camera, point) and prior linearisations
// at the current parameters; scalars->cost; scalars->max_gradient_bits (zeroed first by the
// caller).
void LaunchLinearize(const BaDeviceData& d, cudaStream_t stream);
// For LM parameter mu: point_inverse and y = point_inverse g_p; damping_c; b = -g_c + J_c^T J_p y;
// the inverted block-Jacobi preconditioner of the Schur complement.
void LaunchPrepareStep(const BaDeviceData& d, double mu, double* y, double* b,
                       cudaStream_t stream);
// u = J_c v (2 per observation). Returns at once when `pcg` (may be null) is done.
void LaunchJcV(const BaDeviceData& d, const double* v, double* u, const BaPcgState* pcg,
               cudaStream_t stream);
// out_p = sign * point_inverse_p (add_p + sum J_p^T u); add may be null. As LaunchJcV for pcg.
void LaunchPointSolve(const BaDeviceData& d, const double* u, const double* add, double sign,
                      double* out, const BaPcgState* pcg, cudaStream_t stream);
// PCG start: x = 0, r = b, z = M^-1 r, p = z, state (b_norm, rz; done when b = 0 or a point
// block was singular).
void LaunchPcgInit(const BaDeviceData& d, const BaSolverOptions& options, const double* b,
                   double* x, double* r, double* z, double* p, cudaStream_t stream);
// One PCG iteration: q = S p (u, t: scratch), alpha, x and r updated, z = M^-1 r, the stopping
// tests, beta and p.
void LaunchPcgIteration(const BaDeviceData& d, const double* b, double* x, double* r, double* z,
                        double* p, double* q, double* u, double* t, cudaStream_t stream);
// Zeroes step coordinates held constant.
void LaunchMaskStep(const BaDeviceData& d, double* delta_c, cudaStream_t stream);
// scalars->model_change = sum over observations and priors of -(r . e + e . e / 2), with
// e = u + J_p dp for observations (u = J_c dc), J dc for camera-side priors and W dp for
// point priors.
void LaunchModelChange(const BaDeviceData& d, const double* u, const double* delta_c,
                       const double* delta_p, cudaStream_t stream);
// *out = |a|^2 + |b|^2 + |c|^2 (arrays of na, nb, nc values; null when empty).
void LaunchSquaredNorm(const BaDeviceData& d, const double* a, int na, const double* b, int nb,
                       const double* c, int nc, double* out, cudaStream_t stream);
// Candidate parameters: poses (UpdatePose), camera parameters and points (added).
void LaunchCandidate(const BaDeviceData& d, const double* delta_c, const double* delta_p,
                     double* poses, double* camera_params, double* points, cudaStream_t stream);
// scalars->cost = cost at the given parameters, priors included.
void LaunchCost(const BaDeviceData& d, const double* poses, const double* camera_params,
                const double* points, cudaStream_t stream);

}  // namespace proj::cuda
