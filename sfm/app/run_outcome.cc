// The end of every pipeline command in the sfm program: the library has written the outputs;
// the program prints the report and turns the outcome into an exit code.
#include <iostream>

#include "core/logging.h"
#include "sfm/app/pipeline_commands.h"
#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj::app {

PipelineOutcome OutcomeOfRun(ReconstructionResult result, const std::string& out_dir, bool accept_suspect_model) {
  PipelineOutcome outcome;
  outcome.database_path = result.database_path;
  outcome.out_dir = out_dir;
  if (result.mapper.success) {
    outcome.report = ReconstructionSummary(result, out_dir);
    if (result.quality.verdict != QualityVerdict::kGood && !accept_suspect_model) {
      outcome.exit_code = kExitSuspectModel;
      outcome.failure = std::string("the model failed its quality checks (") +
                        QualityVerdictName(result.quality.verdict) + "; report.json \"quality\"): it is written to '" +
                        out_dir + "' for inspection, but do not use it as it is (--accept-suspect-model to accept it)";
      if (result.mapper_name == "global" && !result.quality.pairs.Consistent()) {
        outcome.failure += "; the incremental mapper (--mapper incremental) may map these images right";
      }
      PROJ_LOG(kError, outcome.failure);
    }
  } else {
    outcome.exit_code = kExitNoModel;
    outcome.failure = NoModelMessage(result);
  }
  outcome.result = std::make_shared<ReconstructionResult>(std::move(result));
  return outcome;
}

CommandRunner PrintingRunner(PipelineRunner run) {
  return [run = std::move(run)]() {
    const PipelineOutcome outcome = run();
    if (!outcome.report.empty()) std::cout << outcome.report << std::endl;
    return outcome.exit_code;
  };
}

}  // namespace proj::app
