// The end of reconstruct and map: the library has written the outputs; the command prints the
// summary and turns the outcome into an exit code.
#include <iostream>

#include "sfm/app/commands.h"
#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj::app {

int PrintOutcome(const ReconstructionResult& result, const std::string& out_dir) {
  if (!result.mapper.success) return kExitNoModel;
  std::cout << ReconstructionSummary(result, out_dir) << std::endl;
  return kExitSuccess;
}

}  // namespace proj::app
