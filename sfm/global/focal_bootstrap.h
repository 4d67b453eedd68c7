// Focal lengths the view graph cannot give. A narrow lens without an EXIF focal length makes
// its pairs' fundamental matrices nearly affine, and the calibration from them
// (view_graph_calibration.h) finds no minimum: 300 views of an object through a 12-degree lens
// (`sfm synth --object`), prior 768 px, truth 3072 px, sharpness 0.003, the prior kept. The
// global mapper averages the rotations of relative poses estimated under that focal length,
// 4.6 degrees off in the median, and builds a wrong model; the incremental mapper refines the
// focal length in its adjustments and is right. So a small incremental model of the
// best-linked images of such a camera gives the global mapper its focal length.
#pragma once

#include <vector>

#include "sfm/mapper/focal_calibration.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct FocalBootstrapOptions {
  bool enabled = true;
  int max_images = 30;      // the small model's images: one image and its best-linked pairs
  int min_registered = 10;  // a smaller model says nothing about the focal length
  void Check() const;  // throws InputError naming the field
};

// For each camera of `calibration` (CalibrateViewGraph's result, one per camera) that has no
// EXIF focal length and was not calibrated: the image of that camera with the most verified
// pairs (min_pair_inliers inliers or more) and its partners with the most inliers, up to
// max_images, mapped by the incremental mapper (`mapper`); when at least min_registered are
// registered, the camera's focal parameters in `scene` become the model's. Returns the ids of
// the cameras changed; logs each.
std::vector<int> BootstrapFocalLengths(const FocalBootstrapOptions& options, const IncrementalMapperOptions& mapper,
                                       int min_pair_inliers, const std::vector<VerifiedPair>& pairs,
                                       const std::vector<CameraFocalCalibration>& calibration, Scene* scene);

}  // namespace proj
