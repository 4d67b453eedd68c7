#include <iostream>
#include <memory>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "sfm/app/commands.h"

namespace proj::app {

CommandRunner AddSynthCommand(CLI::App& app) {
  auto out_dir = std::make_shared<std::string>();
  auto options = std::make_shared<SyntheticSceneOptions>();
  app.add_option("OUT_DIR", *out_dir,
                 "Output folder: OUT_DIR/images/*.jpg and OUT_DIR/gt_dense_cameras/*.camera")
      ->required();
  app.add_flag("--sequence", options->sequence,
               "Render a long sequence with small motion between frames (for --matcher klt)");
  auto count = std::make_shared<int>(0);
  app.add_option("--num-images", *count, "Number of images (default 12, or 80 with --sequence)");
  app.add_option("--width", options->width, "Image width, px")->capture_default_str();
  app.add_option("--height", options->height, "Image height, px")->capture_default_str();
  app.add_option("--seed", options->seed, "Scene seed")->capture_default_str();
  return [=]() {
    if (*count > 0) (options->sequence ? options->num_frames : options->num_images) = *count;
    WriteSyntheticScene(*options, *out_dir);
    std::cout << "synthetic scene written to " << *out_dir << "/images and " << *out_dir
              << "/gt_dense_cameras" << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
