// Our Levenberg-Marquardt bundle adjuster on a CUDA device: the LM loop of sfm/ba/lm_solver.h
// on the host, driving the kernels of cuda::BundleAdjusterGpu (cuda/ba/bundle_adjuster_gpu.h),
// on the plain-array problem the CPU solver (sfm/ba/schur_pcg_cpu.h) takes, with the same
// algorithm.
#pragma once

#include "cuda/ba/ba_types.h"
#include "cuda/ba/bundle_adjuster_gpu.h"

namespace proj {

// Refines problem->poses, points and camera_params in place on `gpu`. Throws InputError for an
// inconsistent problem or bad options.
cuda::BaSolverSummary SolveBaProblemGpu(const cuda::BaSolverOptions& options,
                                        cuda::BaProblem* problem, cuda::BundleAdjusterGpu* gpu);

// As above, on the process's solver of CUDA device `device`, made on the first call for that
// device and kept until exit, so that successive adjustments (the mapper's many local ones)
// reuse its stream and buffers. Calls for one device are serialised; calls for different
// devices run concurrently.
cuda::BaSolverSummary SolveBaProblemGpu(const cuda::BaSolverOptions& options,
                                        cuda::BaProblem* problem, int device = 0);

}  // namespace proj
