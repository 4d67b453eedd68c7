#include <iostream>
#include <memory>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "datasets/synthetic/synthetic_street.h"
#include "sfm/app/commands.h"

namespace proj::app {

CommandRunner AddSynthCommand(CLI::App& app) {
  auto out_dir = std::make_shared<std::string>();
  auto options = std::make_shared<SyntheticSceneOptions>();
  auto street = std::make_shared<SyntheticStreetOptions>();
  app.add_option("OUT_DIR", *out_dir,
                 "Output folder: OUT_DIR/images/*.jpg and OUT_DIR/gt_dense_cameras/*.camera")
      ->required();
  auto* sequence = app.add_flag("--sequence", options->sequence,
                                "Render a long sequence with small motion between frames (for --matcher klt)");
  auto* street_flag = app.add_flag(
      "--street", "Render a car's forward drive along a street (~1 m per frame, a 90-degree turn, a "
                  "stop; 1226x370 unless --width/--height)");
  street_flag->excludes(sequence);
  app.add_option("--radial-k1", street->radial_k1, "--street: SIMPLE_RADIAL distortion k1 (< 0: barrel)")
      ->capture_default_str();
  auto count = std::make_shared<int>(0);
  app.add_option("--num-images", *count,
                 "Number of images (default 12, 80 with --sequence, 56 with --street)");
  auto* width = app.add_option("--width", options->width, "Image width, px")->capture_default_str();
  auto* height = app.add_option("--height", options->height, "Image height, px")->capture_default_str();
  app.add_option("--seed", options->seed, "Scene seed")->capture_default_str();
  return [=]() {
    if (street_flag->count() > 0) {
      if (*count > 0) street->num_frames = *count;
      if (width->count() > 0) street->width = options->width;
      if (height->count() > 0) street->height = options->height;
      street->seed = options->seed;
      WriteSyntheticStreet(*street, *out_dir);
    } else {
      if (*count > 0) (options->sequence ? options->num_frames : options->num_images) = *count;
      WriteSyntheticScene(*options, *out_dir);
    }
    std::cout << "synthetic scene written to " << *out_dir << "/images and " << *out_dir
              << "/gt_dense_cameras" << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
