// The one place device memory is allocated and freed: every allocation is booked against
// the process's GPU memory budget (SFM_GPU_MEMORY_LIMIT_MB, cuda/gpu_fault_hooks.h), which
// answers cudaErrorMemoryAllocation past its limit as the device itself would when full.
// Wrap the calls in PROJ_CUDA_CHECK; the frees return errors for callers that check them
// (destructors ignore them).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/gpu_fault_hooks.h"

namespace proj::cuda {

template <typename T>
cudaError_t DeviceMalloc(T** pointer, size_t bytes) {
  if (!ProcessGpuMemoryBudget().Reserve(bytes)) return cudaErrorMemoryAllocation;
  const cudaError_t status = cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
  if (status != cudaSuccess) ProcessGpuMemoryBudget().Release(bytes);
  return status;
}

// Pitched 2D allocation; books width_bytes * height (the row padding is not counted), which
// DeviceFree must be given back.
template <typename T>
cudaError_t DeviceMallocPitch(T** pointer, size_t* pitch_bytes, size_t width_bytes, size_t height) {
  if (!ProcessGpuMemoryBudget().Reserve(width_bytes * height)) return cudaErrorMemoryAllocation;
  const cudaError_t status =
      cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch_bytes, width_bytes, height);
  if (status != cudaSuccess) ProcessGpuMemoryBudget().Release(width_bytes * height);
  return status;
}

template <typename T>
cudaError_t DeviceMallocAsync(T** pointer, size_t bytes, cudaStream_t stream) {
  if (!ProcessGpuMemoryBudget().Reserve(bytes)) return cudaErrorMemoryAllocation;
  const cudaError_t status = cudaMallocAsync(reinterpret_cast<void**>(pointer), bytes, stream);
  if (status != cudaSuccess) ProcessGpuMemoryBudget().Release(bytes);
  return status;
}

// `bytes` is what the matching allocation booked.
inline cudaError_t DeviceFree(void* pointer, size_t bytes) {
  if (pointer == nullptr) return cudaSuccess;
  ProcessGpuMemoryBudget().Release(bytes);
  return cudaFree(pointer);
}

inline cudaError_t DeviceFreeAsync(void* pointer, size_t bytes, cudaStream_t stream) {
  if (pointer == nullptr) return cudaSuccess;
  ProcessGpuMemoryBudget().Release(bytes);
  return cudaFreeAsync(pointer, stream);
}

}  // namespace proj::cuda
