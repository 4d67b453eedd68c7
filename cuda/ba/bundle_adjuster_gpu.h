// Our Levenberg-Marquardt bundle adjuster on a CUDA device: the algorithm of the CPU solver
// (sfm/ba/schur_pcg_cpu.h: points eliminated by the Schur complement, the reduced camera system
// solved by block-Jacobi preconditioned conjugate gradients with implicit Schur products, prior
// terms), with every per-observation, per-point and per-camera step a kernel, in double
// precision. The LM loop is the shared one of cuda/ba/lm_solver.h. Every sum is made in a fixed
// order (cuda/ba/ba_kernels.cuh), so solving one problem twice gives bit-identical results.
// Host-only header (pimpl, no CUDA includes).
//
// One instance owns one CUDA stream and its device buffers, which grow to the largest problem
// solved and are reused by later solves. Not thread-safe: one caller at a time.
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
  // Device time of the last Solve, milliseconds, by CUDA events on the instance's stream: from
  // before the host lays out and uploads the problem to the last download.
  float last_solve_ms() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Solves on one process-wide BundleAdjusterGpu of device 0, made on the first call and kept
// until exit, so that successive adjustments (the mapper's many local ones) reuse its stream
// and buffers.
// Calls from several threads are serialised.
BaSolverSummary SolveBaProblemGpu(const BaSolverOptions& options, BaProblem* problem);

}  // namespace proj::cuda
