#include "cuda/gpu_fallback.h"

#include "core/logging.h"

namespace proj::cuda {

void GpuFallback::SwitchToCpu(const GpuError& error) {
  ++num_failures_;
  use_gpu_.store(false);
  std::call_once(warned_, [&] {
    PROJ_LOG(kWarning, stage_ << ": the GPU failed (" << error.summary()
                              << "); redoing this part and the rest of the stage on the CPU");
  });
}

}  // namespace proj::cuda
