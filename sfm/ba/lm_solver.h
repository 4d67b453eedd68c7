// The Levenberg-Marquardt loop of our bundle adjuster, shared by the CPU and GPU
// implementations: each provides a cuda::BaBackend (cuda/ba/lm_backend.h: linearisation,
// Schur-complement step by preconditioned conjugate gradients, candidate evaluation) and this
// loop drives it with the trust-region rules of Ceres' LEVENBERG_MARQUARDT strategy (radius
// update of Nielsen 1999, step accepted when actual / predicted decrease > 1e-3), so both stop
// where Ceres would.
// Host-only header.
#pragma once

#include "cuda/ba/ba_types.h"
#include "cuda/ba/lm_backend.h"

namespace proj {

// Runs LM until a tolerance or max_iterations is reached; leaves the backend at the best
// (last accepted) parameters. Fills all of the summary but time_s.
cuda::BaSolverSummary RunLevenbergMarquardt(const cuda::BaSolverOptions& options,
                                            cuda::BaBackend* backend);

}  // namespace proj
