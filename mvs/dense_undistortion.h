// The dense stage's first step: the model's images undistorted into the workspace (images/,
// sparse/: sfm/undistort/model_undistorter.h), reusing the undistorted images of an earlier
// run whose inputs are unchanged (mvs/dense_resume.h: the original camera, the undistortion
// options and the photo's size and modification time).
#pragma once

#include <string>
#include <vector>

#include "mvs/dense_resume.h"
#include "mvs/dense_summary.h"
#include "mvs/dense_workspace.h"
#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"
#include "sfm/undistort/undistorted_camera.h"

namespace proj::mvs {

struct DenseUndistortion {
  // The PINHOLE model as written to sparse/ and read back: the images that could not be
  // undistorted are not registered, and their observations are gone.
  Scene pinhole;
  // Hash of each undistorted image's inputs, by image id (0 for images not registered):
  // part of the inputs of its depth maps.
  std::vector<uint64_t> image_hashes;
  int num_written = 0;
  int num_reused = 0;
  std::vector<SkippedDenseImage> skipped;  // registered images that could not be undistorted
};

// Throws InputError when the model has no registered image, when none could be undistorted
// (naming the first and why), or when the workspace cannot be written; Interrupted on Ctrl-C.
// Updates `record`: the lines of the images to rewrite are dropped and the record written
// before any is rewritten; the caller writes it again once this returns.
DenseUndistortion UndistortIntoWorkspace(const Scene& scene, const ImageSource& images,
                                         const DenseWorkspace& workspace, const UndistortCameraOptions& options,
                                         int num_threads, ResumeRecord* record);

}  // namespace proj::mvs
