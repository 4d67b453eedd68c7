// Host-only fallback when the project is built without CUDA: constructing the filter throws.
#include "core/check.h"
#include "cuda/trilateral/trilateral_gpu.h"

namespace proj::cuda {

struct TrilateralFilterGpu::Impl {};

TrilateralFilterGpu::TrilateralFilterGpu(int device) {
  PROJ_REQUIRE(false, "trilateral filter on the GPU (device " << device
                                                               << "): built without CUDA");
}
TrilateralFilterGpu::~TrilateralFilterGpu() = default;
void TrilateralFilterGpu::Filter(const float*, int, int, const TrilateralGpuOptions&, float*) {}
void TrilateralFilterGpu::FilterDevice(const float*, int, int, const TrilateralGpuOptions&,
                                       float*) {}
void* TrilateralFilterGpu::Stream() const { return nullptr; }
TrilateralGpuStepTimes TrilateralFilterGpu::LastStepTimes() const { return {}; }
TrilateralGpuDiagnostics TrilateralFilterGpu::LastDiagnostics() const { return {}; }

}  // namespace proj::cuda
