// sfm dense MODEL_DIR -o OUT: depth maps and the dense cloud of a sparse model in OUT/dense
// (mvs/dense_reconstruction.h).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "core/check.h"
#include "core/logging.h"
#include "io/atomic_file.h"
#include "mvs/dense_reconstruction.h"
#include "mvs/dense_report.h"
#include "mvs/dense_workspace.h"
#include "sfm/app/commands.h"
#include "sfm/app/dense_options.h"
#include "sfm/app/dense_run.h"
#include "sfm/app/model_images.h"
#include "sfm/app/pipeline_options.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/outputs/output_writer.h"
#include "sfm/reconstruction_io/colmap_model.h"

namespace proj::app {
namespace {

struct DenseArguments {
  std::string model_dir;
  std::string out_dir;
  std::string image_path;
  std::string gpus = "all";
  mvs::DenseOptions options;
};

int Run(DenseArguments args) {
  args.options.gpus = ParseGpuSelection(args.gpus);
  args.options.Check();
  PROJ_REQUIRE(std::filesystem::is_directory(args.model_dir),
               "model folder '" << args.model_dir << "' does not exist or is not a folder");
  const Scene scene = ReadColmapModel(args.model_dir);
  PROJ_REQUIRE(scene.NumRegisteredImages() > 0,
               "the model '" << args.model_dir << "' has no registered image: nothing to densify");
  const ImageSource images = ModelImageSource(args.model_dir, args.image_path);
  EnsureWritableDirectory(args.out_dir);  // fail before the work, not after
  const mvs::DenseWorkspace workspace((std::filesystem::path(args.out_dir) / "dense").string());
  const mvs::DenseSummary summary = DensifyModel(scene, images, args.model_dir, args.out_dir, args.options);
  const bool georeferenced = GeoreferenceOfModel(args.model_dir).has_value();
  std::cout << mvs::DenseSummaryLine(summary) << std::endl;
  if (summary.num_depth_maps_computed + summary.num_depth_maps_reused == 0) {
    PROJ_LOG(kError, "no depth map could be computed (" << summary.skipped.size() << " images skipped, see "
                                                        << workspace.ReportPath() << ")");
    return kExitNoModel;
  }
  std::cout << "output: " << workspace.PointsPlyPath() << (georeferenced ? ", points.las" : "")
            << "; stereo/ (depth, normal and cost maps), images/, sparse/, report.json" << std::endl;
  return kExitSuccess;
}

}  // namespace

CommandRunner AddDenseCommand(CLI::App& app) {
  auto args = std::make_shared<DenseArguments>();
  app.add_option("MODEL_DIR", args->model_dir, "COLMAP model folder, text or binary (OUT/model of sfm reconstruct)")
      ->required();
  app.add_option("-o,--output", args->out_dir,
                 "Output folder: writes OUT/dense/ (points.ply, points.las when the model is georeferenced, "
                 "and COLMAP's dense layout: images/, sparse/, stereo/depth_maps/, stereo/normal_maps/, "
                 "report.json)")
      ->required();
  app.add_option("--image-path", args->image_path,
                 "Folder of the model's images (default: the folders in MODEL_DIR/image_source.json)");
  AddDenseOptions(app, &args->options);
  AddEnumOption(app, "--device", &args->options.device, DeviceNames(),
                "Where depth maps are computed; gpu without a usable GPU is an error");
  app.add_option("--gpus", args->gpus,
                 "GPUs depth maps spread over, one image per GPU at a time: all, N (the first N) or "
                 "a list of device indices (0,2)")
      ->type_name("all|N|LIST")
      ->capture_default_str();
  app.add_option("--threads", args->options.num_threads, "CPU threads, 0 = all cores")->capture_default_str();
  app.footer(
      "The model's images are undistorted to PINHOLE cameras, then each registered image gets a "
      "depth, normal and cost map by PatchMatch stereo against its best source images, written as "
      "it completes (COLMAP's .bin format, so COLMAP's stereo_fusion reads them). Each map is then "
      "filtered against its source images' maps (kept where at least two agree: the .geometric.bin "
      "maps) and the maps are fused into OUT/dense/points.ply (points seen by at least three "
      "images, with normals and colours); when the model comes from a georeferenced sfm "
      "reconstruct run (OUT/georeference.json beside the model), points.las too, in the sparse "
      "points.las's CRS. Run the same "
      "command again to resume: images and maps whose inputs did not change are kept "
      "(OUT/dense/resume.txt). Images that cannot be read or are not their camera's size are "
      "named and skipped.\n"
      "OUT/dense/report.html shows the model's cameras and the dense cloud in 3D (OUT/report.html is left as it is).\n"
      "Exit codes: 0 depth maps written, 1 no depth map could be computed, 2 bad usage or input "
      "(no registered image, no image could be undistorted), 130 interrupted.");
  return [args]() { return Run(*args); };
}

}  // namespace proj::app
