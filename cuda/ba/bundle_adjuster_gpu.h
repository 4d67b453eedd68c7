// Our Levenberg-Marquardt bundle adjuster's steps on a CUDA device: the algorithm of the CPU
// solver (sfm/ba/schur_pcg_cpu.h: points eliminated by the Schur complement, the reduced camera
// system solved by block-Jacobi preconditioned conjugate gradients with implicit Schur products,
// prior terms), with every per-observation, per-point and per-camera step a kernel, in double
// precision. The LM loop runs on the host (sfm/ba/lm_solver.h) and drives an instance through
// the BaBackend interface; sfm/ba/schur_pcg_gpu.h is the whole solve. Every sum is made in a
// fixed order (cuda/ba/ba_kernels.cuh), so solving one problem twice gives bit-identical
// results. Host-only header (pimpl, no CUDA includes).
//
// One instance owns one CUDA stream on one device and its buffers, which grow to the largest
// problem solved and are reused by later solves. Not thread-safe: one caller at a time, and
// Load, the steps and Download of one solve on one thread (Load makes the device current).
#pragma once

#include <memory>

#include "cuda/ba/ba_types.h"
#include "cuda/ba/lm_backend.h"

namespace proj::cuda {

class BundleAdjusterGpu : public BaBackend {
 public:
  // Throws InputError when CUDA device `device` is not usable.
  explicit BundleAdjusterGpu(int device = 0);
  ~BundleAdjusterGpu() override;
  BundleAdjusterGpu(const BundleAdjusterGpu&) = delete;
  BundleAdjusterGpu& operator=(const BundleAdjusterGpu&) = delete;

  // Uploads `problem`, its observations laid out as `layout` (MakeBaLayout of
  // sfm/ba/ba_problem.h), for the steps below. Throws InputError for an inconsistent problem or
  // bad options.
  void Load(const BaSolverOptions& options, const BaProblem& problem, const BaLayout& layout);
  // The BaBackend steps on the loaded problem.
  bool Linearize(double* cost, double* gradient_max_norm) override;
  BaStep ComputeStep(double mu) override;
  bool EvaluateCandidate(double* cost) override;
  void AcceptCandidate() override;
  double ParameterNorm() override;
  // Copies the current parameters into problem->poses, camera_params and points (the loaded
  // problem's sizes).
  void Download(BaProblem* problem);

  // Device time of the last solve, milliseconds, by CUDA events on the instance's stream: from
  // the upload in Load to the end of Download.
  float last_solve_ms() const;
  int device() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proj::cuda
