// Sub-commands of the `sfm` program (the pipeline's are in pipeline_commands.h). Each
// registers its options on a CLI11 sub-app and returns the function that runs it (exit code:
// 0 success, 1 no model, 2 bad usage or input, 3 a model that failed its quality checks).
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace proj::app {

using CommandRunner = std::function<int()>;

CommandRunner AddSynthCommand(CLI::App& app);
CommandRunner AddEvaluateCommand(CLI::App& app);
CommandRunner AddFilterCommand(CLI::App& app);
CommandRunner AddRenderCommand(CLI::App& app);
CommandRunner AddUndistortCommand(CLI::App& app);
CommandRunner AddExportCommand(CLI::App& app);
CommandRunner AddDenseCommand(CLI::App& app);
CommandRunner AddProductsCommand(CLI::App& app);
CommandRunner AddMergeDatabasesCommand(CLI::App& app);

// Exit codes, documented in --help.
constexpr int kExitSuccess = 0;
constexpr int kExitNoModel = 1;
constexpr int kExitBadInput = 2;
// A model was built and written, but its self-check found it inconsistent with its evidence
// (sfm/stages/model_quality.h; report.json "quality"); --accept-suspect-model makes it 0.
constexpr int kExitSuspectModel = 3;
constexpr int kExitInterrupted = 130;  // Ctrl-C (core/interrupt.h), as shells report SIGINT

}  // namespace proj::app
