// RGB colour of the image under each keypoint, for colouring the point cloud.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "features/feature_types.h"
#include "io/image.h"
#include "sfm/pipeline/image_record.h"

namespace proj {

// Nearest pixel under each keypoint (keypoints in the image's pixels).
std::vector<Eigen::Matrix<uint8_t, 3, 1>> SampleColors(const Image& image,
                                                       const FeatureSet& features);

// Decodes each record's image again (in parallel) and fills record.colors.
void SampleKeypointColors(int num_threads, std::vector<ImageRecord>* records);

}  // namespace proj
