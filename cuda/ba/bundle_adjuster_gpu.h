// Our Levenberg-Marquardt bundle adjuster on a CUDA device: the algorithm of the CPU solver
// (sfm/ba/schur_pcg_cpu.h: points eliminated by the Schur complement, the reduced camera system
// solved by block-Jacobi preconditioned conjugate gradients with implicit Schur products), with
// every per-observation, per-point and per-camera step a kernel, in double precision. The LM
// loop is the shared one of cuda/ba/lm_solver.h. Host-only header (pimpl, no CUDA includes).
//
// One instance owns one CUDA stream and its device buffers, which grow to the largest problem
// solved. Not thread-safe: one caller at a time.
#pragma once

#include <memory>

#include "cuda/ba/ba_problem.h"

namespace proj::cuda {

class BundleAdjusterGpu {
 public:
  // Throws InputError when no CUDA device is usable.
  explicit BundleAdjusterGpu(int device = 0);
  ~BundleAdjusterGpu();
  BundleAdjusterGpu(const BundleAdjusterGpu&) = delete;
  BundleAdjusterGpu& operator=(const BundleAdjusterGpu&) = delete;

  // Refines problem->poses, points and camera_params in place. Throws InputError for an
  // inconsistent problem or bad options.
  BaSolverSummary Solve(const BaSolverOptions& options, BaProblem* problem);
  // Device time of the last Solve from the first upload to the last download, milliseconds
  // (CUDA events on the instance's stream).
  float last_solve_ms() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One-shot convenience: a BundleAdjusterGpu on device 0.
BaSolverSummary SolveBaProblemGpu(const BaSolverOptions& options, BaProblem* problem);

}  // namespace proj::cuda
