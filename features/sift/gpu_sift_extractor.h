// FeatureExtractor over the CUDA SIFT (cuda/sift/sift_gpu.h), configured from the same
// SiftParams as the CPU reference. One stream and one set of device buffers:
// ConcurrentCalls() is 1 (calls are serialised by a mutex if made concurrently anyway).
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "cuda/sift/sift_gpu.h"
#include "features/feature_extractor.h"
#include "features/sift/sift_params.h"

namespace proj {

// The CUDA options equivalent to `params` (params.selection.upsample as asked: the GPU
// resolves it per image).
cuda::SiftGpuOptions MakeSiftGpuOptions(const SiftParams& params, const FeatureOptions& options);

// Converts a GPU result to the FeatureSet every extractor returns.
FeatureSet ToFeatureSet(cuda::SiftGpuResult&& result);

class GpuSiftExtractor : public FeatureExtractor {
 public:
  // On CUDA device `device`. Throws InputError without a usable device or for an
  // unavailable scale space.
  explicit GpuSiftExtractor(const FeatureOptions& options, int device = 0);
  FeatureSet Extract(const GrayImage& image) override;
  int ConcurrentCalls() const override { return 1; }
  std::string Description() const override;

 private:
  FeatureOptions options_;
  std::mutex mutex_;
  std::unique_ptr<cuda::SiftGpu> sift_;
};

}  // namespace proj
