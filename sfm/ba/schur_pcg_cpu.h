// Our Levenberg-Marquardt bundle adjuster on the CPU: the same algorithm as the GPU solver
// (cuda/ba/bundle_adjuster_gpu.h), on the same plain-array problem (cuda/ba/ba_types.h), so
// the GPU path is checked against it and the solver runs without a GPU.
//
// Each LM step eliminates the points (3x3 blocks, inverted per point) and solves the reduced
// camera system S dc = b by conjugate gradients preconditioned with the inverses of S's
// diagonal blocks (one 6x6 block per pose, one 5x5 block per camera's intrinsics). S is never
// formed: each product S v is computed from the per-observation Jacobians as
// J_c^T (J_c v - J_p A_pp^-1 J_p^T J_c v) + D_c v ("implicit Schur", as PBA), which costs
// O(observations) memory for any number of cameras and any sharing of intrinsics.
// With options.dense_schur, S is formed (row blocks of each image's pose, summed in image order
// for the shared intrinsics, so the same for any thread count) and solved by dense Cholesky.
#pragma once

#include "cuda/ba/ba_types.h"

namespace proj {

// Refines problem->poses, points and camera_params in place. Throws InputError for an
// inconsistent problem or bad options. Uses options.num_threads threads.
cuda::BaSolverSummary SolveBaProblemCpu(const cuda::BaSolverOptions& options,
                                        cuda::BaProblem* problem);

}  // namespace proj
