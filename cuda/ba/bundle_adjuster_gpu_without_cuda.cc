// Stand-in for builds without nvcc: constructing the GPU bundle adjuster reports that no GPU
// support was built, so callers use the CPU solver or Ceres.
#include "core/check.h"
#include "cuda/ba/bundle_adjuster_gpu.h"

namespace proj::cuda {

struct BundleAdjusterGpu::Impl {};

BundleAdjusterGpu::BundleAdjusterGpu(int /*device*/) {
  PROJ_REQUIRE(false, "the GPU bundle adjuster is unavailable: this program was built without CUDA");
}
BundleAdjusterGpu::~BundleAdjusterGpu() = default;
BaSolverSummary BundleAdjusterGpu::Solve(const BaSolverOptions&, BaProblem*) { return {}; }
float BundleAdjusterGpu::last_solve_ms() const { return 0; }

BaSolverSummary SolveBaProblemGpu(const BaSolverOptions& options, BaProblem* problem) {
  return BundleAdjusterGpu().Solve(options, problem);
}

}  // namespace proj::cuda
