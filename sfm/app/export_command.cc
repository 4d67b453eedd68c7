// sfm export --format nerfstudio|3dgs MODEL_DIR -o OUT_DIR: the model's images undistorted and
// laid out for radiance-field and Gaussian-splatting trainers (sfm/export/model_export.h).
#include <iostream>
#include <memory>

#include "core/logging.h"
#include "sfm/app/cli_help.h"
#include "sfm/app/commands.h"
#include "sfm/app/model_images.h"
#include "sfm/export/model_export.h"

namespace proj::app {
namespace {

struct ExportArguments {
  std::string model_dir;
  std::string out_dir;
  std::string image_path;
  ExportOptions options;
};

const EnumNames<ExportFormat> kExportFormatNames = {
    {"nerfstudio", ExportFormat::kNerfstudio},
    {"3dgs", ExportFormat::kGaussianSplatting},
};

std::string FormatName(ExportFormat format) {
  for (const auto& [name, value] : kExportFormatNames) {
    if (value == format) return name;
  }
  return "";
}

}  // namespace

CommandRunner AddExportCommand(CLI::App& app) {
  auto args = std::make_shared<ExportArguments>();
  app.add_option("MODEL_DIR", args->model_dir, "COLMAP model folder, text or binary (OUT_DIR/model)")->required();
  app.add_option("-o,--output", args->out_dir, "Output folder (layouts below)")->required();
  AddEnumOption(app, "--format", &args->options.format, kExportFormatNames,
                "nerfstudio: OUT_DIR/transforms.json + sparse_pc.ply, for nerfstudio (ns-train nerfacto, "
                "splatfacto, ... --data OUT_DIR); 3dgs: OUT_DIR/sparse/0/*.bin, for the original 3D "
                "Gaussian Splatting code (train.py -s OUT_DIR) and gsplat's COLMAP parser")
      ->required();
  app.add_option("--image-path", args->image_path,
                 "Folder of the model's images (default: the folders in MODEL_DIR/image_source.json)");
  app.add_option("--max-image-size", args->options.undistort.camera.max_image_size_px,
                 "Largest width or height of an undistorted image, px; 0 = no limit")
      ->capture_default_str();
  app.add_option("--threads", args->options.undistort.num_threads, "CPU threads, 0 = all cores")
      ->capture_default_str();
  app.footer(
      "Both formats hold OUT_DIR/images/NAME: each registered image undistorted to a PINHOLE camera "
      "(as sfm undistort: same focal length, size scaled so that no pixel is black), JPEG or PNG as "
      "its name says.\n"
      "nerfstudio: transforms.json as ns-process-data writes it: per frame file_path and "
      "transform_matrix (camera-to-world, OpenGL axes: x right, y up, z back); intrinsics fl_x fl_y "
      "cx cy w h (camera_model OPENCV, no distortion), shared or per frame; applied_transform, the "
      "model's frame -> the frames' (x, y, z) -> (x, z, -y); sparse_pc.ply, the points in that frame.\n"
      "3dgs: the COLMAP binary model (cameras.bin, images.bin, points3D.bin) of the undistorted "
      "images, PINHOLE cameras, the model's poses and points.\n"
      "Images that cannot be read or do not match their camera's size are named and left out.\n"
      "Exit codes: 0 written, 2 bad usage or input, or no image could be undistorted.");
  return [args]() {
    args->options.Check();
    const ModelWithImages model = ReadModelWithImages(args->model_dir, args->image_path);
    const UndistortReport report = ExportModel(model.scene, model.images, args->out_dir, args->options);
    if (report.num_written == 0) {
      PROJ_LOG(kError, "no image could be undistorted (" << report.skipped.size() << " skipped); nothing exported");
      return kExitBadInput;
    }
    std::cout << "exported " << report.num_written << " images";
    if (!report.skipped.empty()) std::cout << " (" << report.skipped.size() << " skipped)";
    std::cout << " to " << args->out_dir << " (" << FormatName(args->options.format) << ")" << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
