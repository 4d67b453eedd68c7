// `sfm undistort`: a model's images resampled to PINHOLE cameras, written as COLMAP's
// image_undistorter writes them, for dense stereo (which assumes pinhole images):
//   OUT_DIR/images/NAME   each registered image, undistorted, under its own name; PNG when the
//                         name ends in .png, else JPEG (quality 95, full-resolution chroma)
//   OUT_DIR/sparse/       cameras.txt, images.txt, points3D.txt (COLMAP text): every camera
//                         PINHOLE, the same poses and points, keypoints undistorted
// Each file is written atomically. An image that cannot be undistorted (missing, unreadable,
// not the size of its camera) is skipped with the reason and left out of sparse/ with its
// observations, so the model and the images folder always agree.
#pragma once

#include <string>
#include <vector>

#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"
#include "sfm/undistort/undistorted_camera.h"

namespace proj {

struct UndistortOptions {
  UndistortCameraOptions camera;
  int num_threads = 0;    // images undistorted at once; 0 = all cores
  int jpeg_quality = 95;  // in [1, 100]
  void Check() const;     // throws InputError naming the field
};

struct SkippedUndistortImage {
  std::string name;
  std::string reason;
};

struct UndistortReport {
  int num_written = 0;
  std::vector<SkippedUndistortImage> skipped;
};

// Undistorts the registered images of `scene`, found through `images`, into `out_dir` as
// described above (sparse/ only when at least one image was written). Throws InputError when
// `out_dir` cannot be written; core/interrupt.h's Interrupted on Ctrl-C, between images.
UndistortReport UndistortModel(const Scene& scene, const ImageSource& images, const std::string& out_dir,
                               const UndistortOptions& options);

// The images part of UndistortModel, for writers of other layouts (sfm/export): writes the
// undistorted images into `images_dir` (IMAGES_DIR/NAME) and sets `*undistorted` to the model
// they belong to, UndistortScene(scene) with the skipped images unregistered. Same errors.
UndistortReport UndistortImages(const Scene& scene, const ImageSource& images, const std::string& images_dir,
                                const UndistortOptions& options, Scene* undistorted);

}  // namespace proj
