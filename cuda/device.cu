#include "cuda/device.h"

#include <cuda_runtime.h>

#include <sstream>

#include "cuda/cuda_check.cuh"

namespace proj::cuda {

bool BuiltWithCuda() { return true; }

bool DeviceAvailable() { return DeviceCount() > 0; }

int DeviceCount() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

std::string DeviceDescription() { return DeviceDescription(0); }

std::string DeviceDescription(int device) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return std::string("no CUDA device (") + cudaGetErrorString(status) + ")";
  if (count == 0) return "no CUDA device";
  if (device < 0 || device >= count) {
    return "CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(count) +
           " visible)";
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    return "CUDA device " + std::to_string(device) + " (properties unavailable)";
  }
  std::ostringstream out;
  out << prop.name << " (sm_" << prop.major << prop.minor << ", "
      << (prop.totalGlobalMem >> 30) << " GiB)";
  return out.str();
}

void SetCurrentDevice(int device) { PROJ_CUDA_CHECK(cudaSetDevice(device)); }

}  // namespace proj::cuda
