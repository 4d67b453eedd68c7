// What reconstruct and map do once the mapper has finished: colours sampled from the
// photos, outputs written atomically (sfm/pipeline/output_writer.h), a summary on stdout.
#pragma once

#include <string>

#include "sfm/pipeline/output_writer.h"
#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj::app {

// Returns the exit code: kExitSuccess with the model written, kExitNoModel with only
// report.json when the mapper built no model. `images_dir` empty: points stay grey.
int FinishReconstruction(ReconstructionResult* result, const RunDescription& run,
                         const std::string& out_dir, const std::string& images_dir, int num_threads);

}  // namespace proj::app
