#include "cuda/device.h"

#include <cuda_runtime.h>

#include <sstream>

namespace proj::cuda {

bool BuiltWithCuda() { return true; }

bool DeviceAvailable() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::string DeviceDescription() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return std::string("no CUDA device (") + cudaGetErrorString(status) + ")";
  if (count == 0) return "no CUDA device";
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "CUDA device 0 (properties unavailable)";
  std::ostringstream out;
  out << prop.name << " (sm_" << prop.major << prop.minor << ", "
      << (prop.totalGlobalMem >> 30) << " GiB)";
  return out.str();
}

}  // namespace proj::cuda
