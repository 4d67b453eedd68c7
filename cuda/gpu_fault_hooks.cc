#include "cuda/gpu_fault_hooks.h"

#include <cstdlib>
#include <string>

#include "core/logging.h"

namespace proj::cuda {

bool GpuMemoryBudget::Reserve(size_t bytes) {
  size_t current = in_use_.load();
  do {
    if (limit_ && current + bytes > *limit_) return false;
  } while (!in_use_.compare_exchange_weak(current, current + bytes));
  return true;
}

void GpuMemoryBudget::Release(size_t bytes) { in_use_.fetch_sub(bytes); }

bool CallFaultCounter::Next() {
  if (!fail_at_) return false;
  return calls_.fetch_add(1) + 1 == *fail_at_;
}

std::optional<int64_t> PositiveEnvironmentInteger(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value <= 0) {
    PROJ_LOG(kWarning, name << "='" << text << "' is not a positive integer; ignored");
    return std::nullopt;
  }
  return value;
}

GpuMemoryBudget& ProcessGpuMemoryBudget() {
  static GpuMemoryBudget budget([]() -> std::optional<size_t> {
    const auto megabytes = PositiveEnvironmentInteger("SFM_GPU_MEMORY_LIMIT_MB");
    if (!megabytes) return std::nullopt;
    PROJ_LOG(kWarning, "SFM_GPU_MEMORY_LIMIT_MB: GPU allocations limited to " << *megabytes << " MiB");
    return static_cast<size_t>(*megabytes) << 20;
  }());
  return budget;
}

CallFaultCounter& ProcessCallFaultCounter() {
  static CallFaultCounter counter([] {
    const auto call = PositiveEnvironmentInteger("SFM_GPU_FAIL_AT_CALL");
    if (call) PROJ_LOG(kWarning, "SFM_GPU_FAIL_AT_CALL: CUDA call " << *call << " will fail");
    return call;
  }());
  return counter;
}

}  // namespace proj::cuda
