// Our LM + Schur + PCG solver's plain-array problem (cuda/ba/ba_types.h) packed from an
// adjustment of the scene, and its solution written back: shared by the solver on the CPU
// (sfm/ba/schur_pcg_cpu.h) and on the GPU (sfm/ba/schur_pcg_gpu.h). Internal to sfm/ba.
#pragma once

#include <vector>

#include "cuda/ba/ba_types.h"
#include "sfm/ba/adjustment.h"

namespace proj::internal {

// The scene ids of a cuda::BaProblem's cameras, images and points, in problem order.
struct ProblemIndex {
  std::vector<int> camera_ids, image_ids, point_ids;
};

// The problem of `adjustment` in the scene's current parameters; `index` receives the scene
// ids in problem order, for writing the solution back.
cuda::BaProblem ToBaProblem(const Adjustment& adjustment, const Scene& scene,
                            ProblemIndex* index);

// Our solver's options for the adjuster's options and the adjustment.
cuda::BaSolverOptions MakeBaSolverOptions(const BundleAdjustmentOptions& options,
                                          const Adjustment& adjustment);

// Packs the problem, solves it on the GPU (use_gpu) or the CPU and writes the solution back
// into the scene.
SolverResult SolveWithLmPcg(const BundleAdjustmentOptions& options, const Adjustment& adjustment,
                            bool use_gpu, Scene* scene);

}  // namespace proj::internal
