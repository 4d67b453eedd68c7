// Colours of the point cloud: each point gets the mean RGB of the pixels under its
// observations. Sampled when the outputs are written, from the photos themselves, so no
// stage before has to keep colours.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "features/feature_types.h"
#include "io/image.h"
#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"

namespace proj {

// Nearest pixel under each keypoint (keypoints in the image's pixels).
std::vector<Eigen::Matrix<uint8_t, 3, 1>> SampleColors(const Image& image,
                                                       const std::vector<Eigen::Vector2d>& keypoints);

// Decodes every registered image that observes a point (resolved by `image_source`: the photos'
// folder, then the video frames' folder; in parallel) and
// sets each point's colour to the mean over its observations. An image that cannot be read
// any more is named in a warning and leaves its observations out; points seen by no readable
// image stay grey. Returns the number of images that could not be read.
int ColorPointsFromImages(const ImageSource& image_source, int num_threads, Scene* scene);

}  // namespace proj
