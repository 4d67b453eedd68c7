// The Levenberg-Marquardt loop of our bundle adjuster, shared by the CPU and GPU
// implementations: each provides a BaBackend (linearisation, Schur-complement step by
// preconditioned conjugate gradients, candidate evaluation) and this loop drives it with the
// trust-region rules of Ceres' LEVENBERG_MARQUARDT strategy (radius update of Nielsen 1999,
// step accepted when actual / predicted decrease > 1e-3), so both stop where Ceres would.
// Host-only header.
#pragma once

#include "cuda/ba/ba_problem.h"

namespace proj::cuda {

struct BaStep {
  bool valid = false;            // the linear solve gave a finite step
  double model_cost_change = 0;  // decrease predicted by the linearised model
  double step_norm = 0;          // Euclidean norm over all tangent coordinates
  int pcg_iterations = 0;
};

// One implementation of the solver's numerical steps; all state (current parameters,
// linearisation, step, candidate) lives in the backend.
class BaBackend {
 public:
  virtual ~BaBackend() = default;
  // Residuals, Jacobians, gradient and the blocks of J^T J at the current parameters; sets the
  // cost and max |gradient|. False when a point is not in front of an observing camera.
  virtual bool Linearize(double* cost, double* gradient_max_norm) = 0;
  // Solves (J^T J + mu D) delta = -J^T r (D: LmDamping's diagonal) for the step.
  virtual BaStep ComputeStep(double mu) = 0;
  // Cost at current parameters + step (not applied); false when some point is not in front.
  virtual bool EvaluateCandidate(double* cost) = 0;
  virtual void AcceptCandidate() = 0;
  virtual double ParameterNorm() = 0;  // Euclidean norm of all stored parameter values
};

// Runs LM until a tolerance or max_iterations is reached; leaves the backend at the best
// (last accepted) parameters. Fills all of the summary but time_s.
BaSolverSummary RunLevenbergMarquardt(const BaSolverOptions& options, BaBackend* backend);

}  // namespace proj::cuda
