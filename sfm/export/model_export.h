// `sfm export`: a model's images undistorted to PINHOLE cameras (sfm/undistort) and laid out
// for the tools that train radiance fields or Gaussian splats on posed images:
//   kNerfstudio         OUT/images/NAME, OUT/transforms.json and OUT/sparse_pc.ply
//                       (nerfstudio_transforms.h), what `ns-process-data` writes
//   kGaussianSplatting  OUT/images/NAME and OUT/sparse/0/{cameras,images,points3D}.bin, a
//                       COLMAP binary model with PINHOLE cameras: what the original 3D Gaussian
//                       Splatting code's convert.py leaves (COLMAP's image_undistorter, then
//                       sparse/ moved into sparse/0/) and what its loader and gsplat's COLMAP
//                       parser read
// Images are named and written as `sfm undistort` writes them (model_undistorter.h); one that
// cannot be undistorted is named, skipped and left out of the written model or frames.
#pragma once

#include <string>

#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"
#include "sfm/undistort/model_undistorter.h"

namespace proj {

enum class ExportFormat { kNerfstudio, kGaussianSplatting };

struct ExportOptions {
  ExportFormat format = ExportFormat::kNerfstudio;
  UndistortOptions undistort;  // --max-image-size, threads, JPEG quality
  void Check() const { undistort.Check(); }
};

// Writes the layout of `options.format` into `out_dir`, the images found through `images`.
// The model files are written only when at least one image was. Throws InputError when
// `out_dir` cannot be written; core/interrupt.h's Interrupted on Ctrl-C, between images.
UndistortReport ExportModel(const Scene& scene, const ImageSource& images, const std::string& out_dir,
                            const ExportOptions& options);

}  // namespace proj
