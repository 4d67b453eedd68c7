#include "matching/descriptor_matcher.h"

#include "core/check.h"
#include "cuda/device_selection.h"
#include "matching/cpu_descriptor_matcher.h"
#include "matching/gpu_descriptor_matcher.h"
#include "matching/gpu_fallback_matcher.h"

namespace proj {

void DescriptorMatchOptions::Check() const {
  PROJ_REQUIRE(max_ratio > 0 && max_ratio <= 1, "matching ratio must be in (0, 1]");
  PROJ_REQUIRE(num_threads >= 0, "--threads must be >= 0");
  gpus.Check();
}

std::unique_ptr<DescriptorMatcher> CreateDescriptorMatcher(const DescriptorMatchOptions& options) {
  options.Check();
  auto make_cpu = [options]() -> std::unique_ptr<DescriptorMatcher> {
    return std::make_unique<CpuDescriptorMatcher>(options);
  };
  const std::vector<int> devices = SelectGpus(options.device, options.gpus);
  if (devices.empty()) return make_cpu();
  return std::make_unique<GpuFallbackMatcher>(
      devices, [&options](int device) { return CreateGpuDescriptorMatcher(options, device); }, make_cpu);
}

FeatureSetViews ViewsOf(const std::vector<FeatureSet>& features) {
  FeatureSetViews views;
  views.reserve(features.size());
  for (const FeatureSet& f : features) views.push_back(&f);
  return views;
}

}  // namespace proj
