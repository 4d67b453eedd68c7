// Command-line options of the pipeline stages, declared once and shared by the sub-commands
// that run them (reconstruct = extract + match + map). Each Add*Options binds a group of
// options to a PipelineArgs; Finalize() turns the parsed values into ReconstructionOptions.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "sfm/app/cli_help.h"
#include "sfm/stages/reconstruction_options.h"

namespace proj::app {

enum class MatcherChoice { kAuto, kExhaustive, kSequential, kSpatial, kKlt };

struct PipelineArgs {
  ReconstructionOptions options;
  std::string database_path;
  std::string camera_model = "auto";
  std::string upsample = "auto";
  std::string gps_altitude_datum = "auto";  // or a VerticalDatumKey
  std::string gpus = "all";  // --gpus, parsed by Finalize
  bool edge_test = true;
  bool accept_suspect_model = false;  // exit 0 with a model that failed its quality checks
  MatcherChoice matcher = MatcherChoice::kAuto;

  // Options resolved from the parsed arguments (Check()ed).
  ReconstructionOptions Finalize() const;
};

// Names of --device values (auto, cpu, gpu), for every command that has the option.
const EnumNames<ComputeDevice>& DeviceNames();

// --device, --threads, --seed, --on-option-change.
void AddRunOptions(CLI::App& app, PipelineArgs* args);
// --gpus (the sub-commands that extract or match).
void AddGpusOption(CLI::App& app, PipelineArgs* args);
// --database PATH; `required` for the stage sub-commands, optional for reconstruct.
void AddDatabaseOption(CLI::App& app, PipelineArgs* args, bool required);
// Features and cameras: --features, --max-image-size, --max-features, --upsample,
// --scale-space, --edge-test, --camera-model, --single-camera, --gps-altitude-datum,
// --video-fps.
void AddExtractionOptions(CLI::App& app, PipelineArgs* args);
// Pair selection and matching: --matcher, --overlap, --spatial-*, --max-chunk-images; with_klt adds the
// KLT options (reconstruct only: tracking needs the images in order).
void AddMatchingOptions(CLI::App& app, PipelineArgs* args, bool with_klt);
// Mapper: --refine-principal-point.
void AddMapperOptions(CLI::App& app, PipelineArgs* args);

}  // namespace proj::app
