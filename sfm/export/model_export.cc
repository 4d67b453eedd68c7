#include "sfm/export/model_export.h"

#include <filesystem>
#include <string>

#include "core/logging.h"
#include "sfm/export/nerfstudio_transforms.h"
#include "sfm/reconstruction_io/colmap_binary.h"

namespace proj {
namespace {

// The original 3DGS code opens IMAGES/basename(NAME) (gsplat opens IMAGES/NAME), so it does not
// find images whose names hold a folder; they are written as COLMAP writes them all the same.
void WarnOfNamesWithFolders(const Scene& scene) {
  int count = 0;
  std::string example;
  for (const SceneImage& image : scene.images) {
    if (!image.registered || image.name.find('/') == std::string::npos) continue;
    if (count++ == 0) example = image.name;
  }
  if (count == 0) return;
  PROJ_LOG(kWarning, "export: " << count << " image name(s) with a folder (e.g. '" << example
                                << "'); the original 3DGS code looks images up by file name alone, so "
                                   "it will not find them (gsplat will)");
}

}  // namespace

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
      WarnOfNamesWithFolders(undistorted);
      WriteColmapBinary(undistorted, (fs::path(out_dir) / "sparse" / "0").string());
      PROJ_LOG(kInfo, "export: PINHOLE model of " << report.num_written << " images in " << out_dir
                                                  << "/sparse/0");
      break;
  }
  return report;
}

}  // namespace proj
