// sfm: photos in, camera poses and a coloured point cloud out.
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/logging.h"
#include "sfm/app/cli_help.h"
#include "sfm/app/command_failure.h"
#include "sfm/app/commands.h"
#include "sfm/app/pipeline_commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "sfm: GPU-accelerated Structure-from-Motion. Turns a folder of photos into camera poses\n"
      "and a coloured sparse point cloud (PLY, COLMAP text and binary model).\n\n"
      "Exit codes: 0 model written, 1 no model could be built, 2 bad usage or no usable input,\n"
      "3 a model was written but failed its quality checks (it disagrees with its GPS or its\n"
      "image pairs: see report.json \"quality\"; --accept-suspect-model to accept it), 130\n"
      "interrupted (Ctrl-C; run the same command again to resume)."};
  app.require_subcommand(1);
  app.formatter(proj::app::MakeHelpFormatter());  // before the sub-commands: they copy it
  // PROJ_VERSION is CMake's project(VERSION), defined for this target in CMakeLists.txt.
  app.set_version_flag("--version", "sfm " PROJ_VERSION, "Print the version and exit");
  bool quiet = false;
  bool verbose = false;
  proj::app::AddLogLevelFlags(app, &quiet, &verbose);
  std::vector<std::pair<CLI::App*, proj::app::CommandRunner>> commands;
  auto add = [&](const char* name, const char* help, auto adder) {
    CLI::App* sub = app.add_subcommand(name, help);
    commands.emplace_back(sub, adder(*sub));
    proj::app::AddLogLevelFlags(*sub, &quiet, &verbose);
  };
  add("reconstruct", "Reconstruct cameras and points from a folder of photos",
      [](CLI::App& sub) { return proj::app::PrintingRunner(proj::app::AddReconstructPipeline(sub)); });
  add("extract", "Stage 1: extract features of a folder of photos into a scene database",
      [](CLI::App& sub) { return proj::app::PrintingRunner(proj::app::AddExtractPipeline(sub)); });
  add("match", "Stage 2: match and verify the image pairs of a scene database",
      [](CLI::App& sub) { return proj::app::PrintingRunner(proj::app::AddMatchPipeline(sub)); });
  add("map", "Stage 3: build the model from a scene database's verified pairs (ours or COLMAP's)",
      [](CLI::App& sub) { return proj::app::PrintingRunner(proj::app::AddMapPipeline(sub)); });
  add("merge-databases",
      "Join the scene databases of a cluster run's shards (extract/match --shard i/N) into one",
      proj::app::AddMergeDatabasesCommand);
  add("synth", "Render the built-in synthetic scene (images and ground-truth cameras)",
      proj::app::AddSynthCommand);
  add("evaluate", "Compare a model's cameras with ground truth (.camera files)",
      proj::app::AddEvaluateCommand);
  add("filter", "Write the trilateral-filtered version of an image (to look at it)",
      proj::app::AddFilterCommand);
  add("render", "Draw a picture (PNG) of a model's points and cameras, without a GPU",
      proj::app::AddRenderCommand);
  add("undistort", "Resample a model's images to PINHOLE cameras (COLMAP's layout, for dense stereo)",
      proj::app::AddUndistortCommand);
  add("export", "Undistorted images and cameras for nerfstudio (transforms.json) or 3D Gaussian Splatting",
      proj::app::AddExportCommand);
  add("dense", "Depth maps of a model's images by PatchMatch stereo (dense reconstruction)",
      proj::app::AddDenseCommand);
  add("products", "Map products of a georeferenced output folder: the surface model dsm.tif and the orthophoto orthophoto.tif (GeoTIFF)",
      proj::app::AddProductsCommand);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : proj::app::kExitBadInput;
  }
  if (quiet) proj::SetLogLevel(proj::LogLevel::kWarning);
  if (verbose) proj::SetLogLevel(proj::LogLevel::kDebug);
  proj::InstallInterruptHandler();
  for (auto& [sub, run] : commands) {
    if (!sub->parsed()) continue;
    try {
      return run();
    } catch (const std::exception&) {
      const proj::app::CommandFailure failure = proj::app::CurrentCommandFailure();
      PROJ_LOG(kError, failure.message);
      return failure.exit_code;
    }
  }
  return proj::app::kExitBadInput;
}
