// The end of every pipeline command in the sfm program: the library has written the outputs;
// the program prints the report and turns the outcome into an exit code.
#include <iostream>

#include "sfm/app/pipeline_commands.h"
#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj::app {

PipelineOutcome OutcomeOfRun(ReconstructionResult result, const std::string& out_dir) {
  PipelineOutcome outcome;
  outcome.database_path = result.database_path;
  outcome.out_dir = out_dir;
  if (result.mapper.success) {
    outcome.report = ReconstructionSummary(result, out_dir);
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
