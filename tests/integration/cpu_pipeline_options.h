// The pipeline options of the integration tests that run whole stages on the CPU: at most 2,048
// features an image (fast on two cores) and the mapper asked for.
#pragma once

#include "sfm/stages/reconstruction_options.h"

namespace proj::testing {

inline ReconstructionOptions CpuPipelineOptions(MapperChoice mapper) {
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.extraction.features.selection.max_features = 2048;
  options.mapper_choice = mapper;
  return options.Resolve();
}

}  // namespace proj::testing
