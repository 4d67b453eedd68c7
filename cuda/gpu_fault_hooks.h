// Test hooks that make the GPU fail on purpose, so the CPU fallback can be exercised on a
// working GPU. Both are read from the environment once, at the first CUDA call checked:
//   SFM_GPU_MEMORY_LIMIT_MB=N  device allocations made through cuda/device_memory.cuh fail
//                              with cudaErrorMemoryAllocation once N MiB are in use;
//   SFM_GPU_FAIL_AT_CALL=N     the N-th checked CUDA call (PROJ_CUDA_CHECK: API calls and
//                              launch checks, counted from 1) fails as a launch failure.
// The bookkeeping is plain host code (GpuMemoryBudget, CallFaultCounter) so it is tested
// without a GPU. Host-only header.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace proj::cuda {

// Bytes of device memory in use against an optional limit. Thread-safe.
class GpuMemoryBudget {
 public:
  explicit GpuMemoryBudget(std::optional<size_t> limit_bytes) : limit_(limit_bytes) {}
  // Books `bytes`; false (nothing booked) when that would pass the limit.
  bool Reserve(size_t bytes);
  void Release(size_t bytes);
  size_t in_use() const { return in_use_.load(); }

 private:
  std::optional<size_t> limit_;
  std::atomic<size_t> in_use_{0};
};

// Counts checked calls; Next() is true for the `fail_at`-th call (1-based) only. Thread-safe.
class CallFaultCounter {
 public:
  explicit CallFaultCounter(std::optional<int64_t> fail_at) : fail_at_(fail_at) {}
  bool Next();

 private:
  std::optional<int64_t> fail_at_;
  std::atomic<int64_t> calls_{0};
};

// A positive integer environment variable; nullopt when unset, empty or not a positive
// integer (a malformed value is reported once on stderr and ignored).
std::optional<int64_t> PositiveEnvironmentInteger(const char* name);

// The process-wide hooks, configured from the environment on first use.
GpuMemoryBudget& ProcessGpuMemoryBudget();
CallFaultCounter& ProcessCallFaultCounter();

}  // namespace proj::cuda
