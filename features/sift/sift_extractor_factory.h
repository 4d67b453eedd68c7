// Creates the project's own SIFT extractor: the CUDA implementation on the GPUs of
// options.gpus when options.device asks for (or auto finds) a GPU, the CPU reference
// otherwise.
#pragma once

#include <memory>

#include "features/feature_extractor.h"

namespace proj {

std::unique_ptr<FeatureExtractor> CreateSiftExtractor(const FeatureOptions& options);

}  // namespace proj
