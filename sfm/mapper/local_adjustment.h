// Bounds a local bundle adjustment to the new image's neighbourhood. ConfigForLocal holds
// every registered image that observes a variable point with a constant pose; where points are
// seen by many images (long tracks around an object) that is most of the model, and the local
// adjustment would grow with it. Keeping only the constant images that share most points with
// the variable ones keeps its size bounded; the dropped observations are refined by the next
// global adjustment.
#pragma once

#include "sfm/ba/bundle_adjuster.h"
#include "sfm/scene/scene.h"

namespace proj {

// Keeps the `max_images` constant-pose images of `config` that observe the most of its variable
// points (ties: lower id) and removes the others. Variable points left with fewer than two
// observations in the remaining images are removed too (one ray does not fix a point). No
// change when there are at most `max_images` constant-pose images.
void LimitConstantPoseImages(const Scene& scene, int max_images, BundleAdjustmentConfig* config);

}  // namespace proj
