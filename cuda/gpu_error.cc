#include "cuda/gpu_error.h"

namespace proj::cuda {

GpuError::GpuError(int code, std::string name, const std::string& description,
                   const std::string& call, const std::string& where)
    : std::runtime_error("CUDA error " + name + ": " + description + " in " + call + " (" + where + ")"),
      code_(code),
      summary_(std::move(name) + ": " + description) {}

}  // namespace proj::cuda
