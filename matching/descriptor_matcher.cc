#include "matching/descriptor_matcher.h"

#include "core/check.h"
#include "matching/cpu_descriptor_matcher.h"
#include "matching/gpu_descriptor_matcher.h"

namespace proj {

void DescriptorMatchOptions::Check() const {
  PROJ_REQUIRE(max_ratio > 0 && max_ratio <= 1, "matching ratio must be in (0, 1]");
  PROJ_REQUIRE(num_threads >= 0, "--threads must be >= 0");
}

std::unique_ptr<DescriptorMatcher> CreateDescriptorMatcher(const DescriptorMatchOptions& options) {
  options.Check();
  if (UseGpu(options.device)) return CreateGpuDescriptorMatcher(options);
  return std::make_unique<CpuDescriptorMatcher>(options);
}

}  // namespace proj
