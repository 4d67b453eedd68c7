// The numerical steps of our Levenberg-Marquardt solver, as the LM loop
// (sfm/ba/lm_solver.h) drives them; implemented on the CPU (sfm/ba/schur_pcg_cpu.cc) and on
// the GPU (cuda/ba/bundle_adjuster_gpu.h). An interface of plain values only, so the GPU
// implementation needs nothing from sfm/. Host-only header.
#pragma once

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

}  // namespace proj::cuda
