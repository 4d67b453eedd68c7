// PROJ_CUDA_CHECK wraps every CUDA API call and launch, in all builds (STYLE P10). A failure
// throws cuda::GpuError (cuda/gpu_error.h), which the stages turn into a CPU fallback; the
// SFM_GPU_FAIL_AT_CALL hook (cuda/gpu_fault_hooks.h) makes a chosen call fail for tests.
// Destructors must not use it (a throw there terminates): they release without checking.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/check.h"  // the .cu files check their invariants through it too
#include "cuda/gpu_error.h"
#include "cuda/gpu_fault_hooks.h"

namespace proj::cuda::internal {

inline void CheckCudaCall(cudaError_t status, const char* call, const char* file, int line) {
  if (ProcessCallFaultCounter().Next() && status == cudaSuccess) status = cudaErrorLaunchFailure;
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clears a non-sticky error so later launch checks do not see it again
  throw GpuError(static_cast<int>(status), cudaGetErrorName(status), cudaGetErrorString(status),
                 call, std::string(file) + ":" + std::to_string(line));
}

}  // namespace proj::cuda::internal

#define PROJ_CUDA_CHECK(call) ::proj::cuda::internal::CheckCudaCall((call), #call, __FILE__, __LINE__)
