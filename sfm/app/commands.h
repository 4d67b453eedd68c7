// Sub-commands of the `sfm` program. Each registers its options on a CLI11 sub-app and
// returns the function that runs it (exit code: 0 success, 1 no model, 2 bad usage or input).
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace proj {
struct ReconstructionResult;
}  // namespace proj

namespace proj::app {

using CommandRunner = std::function<int()>;

CommandRunner AddReconstructCommand(CLI::App& app);
CommandRunner AddExtractCommand(CLI::App& app);
CommandRunner AddMatchCommand(CLI::App& app);
CommandRunner AddMapCommand(CLI::App& app);
CommandRunner AddSynthCommand(CLI::App& app);
CommandRunner AddEvaluateCommand(CLI::App& app);
CommandRunner AddFilterCommand(CLI::App& app);
CommandRunner AddRenderCommand(CLI::App& app);
CommandRunner AddUndistortCommand(CLI::App& app);
CommandRunner AddExportCommand(CLI::App& app);
CommandRunner AddDenseCommand(CLI::App& app);

// Exit codes, documented in --help.
constexpr int kExitSuccess = 0;
constexpr int kExitNoModel = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;  // Ctrl-C (core/interrupt.h), as shells report SIGINT

// Prints a finished run's summary on stdout (sfm/pipeline/reconstruction_pipeline.h) and
// returns its exit code: kExitSuccess with a model, kExitNoModel without.
int PrintOutcome(const ReconstructionResult& result, const std::string& out_dir);

}  // namespace proj::app
