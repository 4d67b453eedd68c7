// GpuError: what the cuda/ host APIs throw when a CUDA call or kernel launch fails (out of
// memory, a failed launch, a lost device). Stages catch it at their dispatch and redo the
// work on the CPU (cuda/gpu_fallback.h); nothing else should. Host-only header.
#pragma once

#include <stdexcept>
#include <string>

namespace proj::cuda {

class GpuError : public std::runtime_error {
 public:
  // `code` is the cudaError_t value, `name` its name ("cudaErrorMemoryAllocation"),
  // `description` CUDA's text, `call` the failing expression and `where` its file:line.
  GpuError(int code, std::string name, const std::string& description, const std::string& call,
           const std::string& where);
  int code() const { return code_; }
  // "cudaErrorMemoryAllocation: out of memory".
  const std::string& summary() const { return summary_; }

 private:
  int code_;
  std::string summary_;
};

}  // namespace proj::cuda
