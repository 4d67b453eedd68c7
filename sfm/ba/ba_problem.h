// Host algorithms on our solver's plain-array problem (cuda/ba/ba_types.h): the observation
// layout both the CPU and GPU solvers work in, and the cost the CUDA kernels compute, on the
// CPU for tests and summaries.
#pragma once

#include "cuda/ba/ba_types.h"

namespace proj {

cuda::BaLayout MakeBaLayout(const cuda::BaProblem& problem);

// Sum of the problem's prior terms (0.5 |residual|^2 each) at the given poses, camera
// parameters and points (laid out as problem.poses, problem.camera_params, problem.points).
double PriorCost(const cuda::BaProblem& problem, const double* poses, const double* camera_params,
                 const double* points);

// Cost of the problem at its current parameters with the loss, prior terms included; false
// (cost untouched) when a point is not in front of an observing camera.
bool EvaluateBaCost(const cuda::BaProblem& problem, cuda::BaLoss loss, double loss_scale_px,
                    double* cost);

}  // namespace proj
