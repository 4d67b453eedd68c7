// The pipeline's sub-commands (reconstruct, extract, match, map) as both the sfm program and
// the Python module (python/) run them. Each registers its options on a CLI11 app, the one
// definition of their names, defaults and checks, and returns the function that runs the
// parsed command and says what it produced: the program prints it, Python returns it.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "sfm/app/commands.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj::app {

struct PipelineOutcome {
  int exit_code = kExitSuccess;  // or kExitNoModel, kExitSuspectModel
  std::string report;            // what the program prints on stdout
  std::string failure;           // exit_code != kExitSuccess: the error the run logged
  std::string database_path;
  std::string out_dir;                                 // reconstruct and map
  std::shared_ptr<ReconstructionResult> result;  // reconstruct and map
};

using PipelineRunner = std::function<PipelineOutcome()>;

PipelineRunner AddReconstructPipeline(CLI::App& app);
PipelineRunner AddExtractPipeline(CLI::App& app);
PipelineRunner AddMatchPipeline(CLI::App& app);
PipelineRunner AddMapPipeline(CLI::App& app);

// The outcome of a finished reconstruct or map: the summary with a model, else the reason; a
// model whose quality verdict is not good is kExitSuspectModel (logged as an error) unless
// `accept_suspect_model` (--accept-suspect-model).
PipelineOutcome OutcomeOfRun(ReconstructionResult result, const std::string& out_dir, bool accept_suspect_model);

// The program's runner of a pipeline command: prints the report on stdout (a failure was
// logged by the run) and returns the exit code.
CommandRunner PrintingRunner(PipelineRunner run);

}  // namespace proj::app
