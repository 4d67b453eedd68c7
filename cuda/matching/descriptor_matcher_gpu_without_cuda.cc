// Build without nvcc: the GPU matcher exists as a type but cannot be constructed.
#include "core/check.h"
#include "cuda/matching/descriptor_matcher_gpu.h"

namespace proj::cuda {

struct DescriptorMatcherGpu::Impl {
  GpuMatchTimings timings;
};

DescriptorMatcherGpu::DescriptorMatcherGpu(int) {
  PROJ_REQUIRE(false, "GPU matching is not available: the program was built without CUDA");
}
DescriptorMatcherGpu::~DescriptorMatcherGpu() = default;
int DescriptorMatcherGpu::AddDescriptors(const uint8_t*, int, bool) { return -1; }
void DescriptorMatcherGpu::Clear() {}
int DescriptorMatcherGpu::NumSets() const { return 0; }
std::vector<std::vector<GpuMatch>> DescriptorMatcherGpu::MatchPairs(
    const std::vector<std::pair<int, int>>&, const GpuMatchOptions&) {
  return {};
}
const GpuMatchTimings& DescriptorMatcherGpu::last_timings() const { return impl_->timings; }
std::string DescriptorMatcherGpu::DeviceName() const { return ""; }

}  // namespace proj::cuda
