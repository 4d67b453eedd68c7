// Build without nvcc: the GPU SIFT exists as a type but cannot be constructed.
#include "core/check.h"
#include "cuda/sift/sift_gpu.h"

namespace proj::cuda {

void SiftGpuOptions::Check() const {}

struct SiftGpu::Impl {
  SiftGpuTimings timings;
};

SiftGpu::SiftGpu(const SiftGpuOptions&, int) {
  PROJ_REQUIRE(false, "GPU SIFT is not available: the program was built without CUDA");
}
SiftGpu::~SiftGpu() = default;
SiftGpuResult SiftGpu::Extract(const ImageView&) { return {}; }
void SiftGpu::Enqueue(const ImageView&) {}
SiftGpuResult SiftGpu::Retrieve() { return {}; }
void SiftGpu::Reserve(int, int) {}
const SiftGpuTimings& SiftGpu::last_timings() const { return impl_->timings; }
std::string SiftGpu::DeviceName() const { return ""; }

}  // namespace proj::cuda
