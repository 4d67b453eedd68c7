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
void BundleAdjusterGpu::Load(const BaSolverOptions&, const BaProblem&, const BaLayout&) {}
bool BundleAdjusterGpu::Linearize(double*, double*) { return false; }
BaStep BundleAdjusterGpu::ComputeStep(double) { return {}; }
bool BundleAdjusterGpu::EvaluateCandidate(double*) { return false; }
void BundleAdjusterGpu::AcceptCandidate() {}
double BundleAdjusterGpu::ParameterNorm() { return 0; }
void BundleAdjusterGpu::Download(BaProblem*) {}
float BundleAdjusterGpu::last_solve_ms() const { return 0; }
int BundleAdjusterGpu::device() const { return 0; }

}  // namespace proj::cuda
