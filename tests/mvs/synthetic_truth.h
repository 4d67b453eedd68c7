// The synthetic ring scene (datasets/synthetic, as `sfm synth` renders it) with its true depth
// and normal maps: perfect input for the geometric filter and fusion, whose output can then be
// measured against the world's surfaces.
#pragma once

#include <vector>

#include "datasets/synthetic/synthetic_world.h"
#include "mvs/dense_view.h"
#include "mvs/depth_map.h"
#include "mvs/normal_map.h"

namespace proj::testing {

struct SyntheticTruth {
  synthetic::SyntheticWorld world;
  std::vector<mvs::ViewGeometry> views;
  std::vector<mvs::DepthMap> depths;    // true depth, 0 for the sky
  std::vector<mvs::NormalMap> normals;  // true normals, camera frame, facing the camera
  // Ring neighbours of each view: the two before and the two after it (30 degrees apart).
  std::vector<std::vector<int>> neighbours;
};

// Views of `width` x `height` (focal length scaled from the 1280x960 default), built once per
// size and test binary.
const SyntheticTruth& SyntheticRingTruth(int width = 320, int height = 240);

// How many of the views `candidates` see the world point `point`: in front of the camera,
// inside the image, and the first surface on the ray from the camera centre (by ray casting,
// not through the depth maps).
int CountViewsSeeing(const SyntheticTruth& truth, const std::vector<int>& candidates,
                     const Eigen::Vector3d& point);

// Whether pixel (x, y) of `view` is one the geometric filter can confirm: it has a depth, its
// normal is within `max_grazing_angle_deg` of the ray to the camera, and at least
// `min_views` of its neighbours see its point.
bool ConfirmablePixel(const SyntheticTruth& truth, int view, int x, int y, int min_views,
                      double max_grazing_angle_deg);

}  // namespace proj::testing
