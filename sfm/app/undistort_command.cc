// sfm undistort MODEL_DIR -o OUT_DIR: the model's images resampled to PINHOLE cameras
// (sfm/undistort/model_undistorter.h), as COLMAP's image_undistorter lays them out.
#include <iostream>
#include <memory>

#include "core/logging.h"
#include "sfm/app/commands.h"
#include "sfm/app/model_images.h"
#include "sfm/image_source/image_source.h"
#include "sfm/undistort/model_undistorter.h"

namespace proj::app {
namespace {

struct UndistortArguments {
  std::string model_dir;
  std::string out_dir;
  std::string image_path;
  UndistortOptions options;
};

}  // namespace

CommandRunner AddUndistortCommand(CLI::App& app) {
  auto args = std::make_shared<UndistortArguments>();
  app.add_option("MODEL_DIR", args->model_dir, "COLMAP model folder, text or binary (OUT_DIR/model)")->required();
  app.add_option("-o,--output", args->out_dir,
                 "Output folder: OUT_DIR/images/ (undistorted, same names) and OUT_DIR/sparse/ "
                 "(COLMAP text model, PINHOLE cameras)")
      ->required();
  app.add_option("--image-path", args->image_path,
                 "Folder of the model's images (default: the folders in MODEL_DIR/image_source.json)");
  app.add_option("--max-image-size", args->options.camera.max_image_size_px,
                 "Largest width or height of an undistorted image, px; 0 = no limit")
      ->capture_default_str();
  app.add_option("--threads", args->options.num_threads, "CPU threads, 0 = all cores")->capture_default_str();
  app.footer(
      "Each camera becomes a PINHOLE camera with the same focal length, its size scaled so that "
      "every pixel of the undistorted image comes from inside the original (no black borders).\n"
      "Images that cannot be read or do not match their camera's size are named and skipped.\n"
      "Exit codes: 0 written, 2 bad usage or input, or no image could be undistorted.");
  return [args]() {
    args->options.Check();
    const ModelWithImages model = ReadModelWithImages(args->model_dir, args->image_path);
    const UndistortReport report = UndistortModel(model.scene, model.images, args->out_dir, args->options);
    if (report.num_written == 0) {
      PROJ_LOG(kError, "no image could be undistorted (" << report.skipped.size() << " skipped)");
      return kExitBadInput;
    }
    std::cout << "undistorted " << report.num_written << " images";
    if (!report.skipped.empty()) std::cout << " (" << report.skipped.size() << " skipped)";
    std::cout << " into " << args->out_dir << "/images, PINHOLE model in " << args->out_dir << "/sparse"
              << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
