#include "sfm/export/model_export.h"

#include <filesystem>

#include "core/logging.h"
#include "sfm/export/nerfstudio_transforms.h"
#include "sfm/reconstruction_io/colmap_binary.h"

namespace proj {

UndistortReport ExportModel(const Scene& scene, const ImageSource& images, const std::string& out_dir,
                            const ExportOptions& options) {
  namespace fs = std::filesystem;
  options.Check();
  Scene undistorted;
  const UndistortReport report =
      UndistortImages(scene, images, (fs::path(out_dir) / "images").string(), options.undistort, &undistorted);
  if (report.num_written == 0) return report;
  switch (options.format) {
    case ExportFormat::kNerfstudio:
      WriteNerfstudioDataset(undistorted, out_dir);
      PROJ_LOG(kInfo, "export: " << report.num_written << " frames in " << out_dir << "/"
                                 << kNerfstudioTransformsFileName << ", points in " << out_dir << "/"
                                 << kNerfstudioPointsFileName);
      break;
    case ExportFormat::kGaussianSplatting:
      WriteColmapBinary(undistorted, (fs::path(out_dir) / "sparse" / "0").string());
      PROJ_LOG(kInfo, "export: PINHOLE model of " << report.num_written << " images in " << out_dir
                                                  << "/sparse/0");
      break;
  }
  return report;
}

}  // namespace proj
