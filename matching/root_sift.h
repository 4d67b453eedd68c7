// RootSIFT (Arandjelovic & Zisserman 2012): L1-normalise, then square root. The result has
// unit L2 norm, so squared L2 distance = 2 - 2 * dot product.
#pragma once

#include <Eigen/Core>

#include "features/feature_types.h"

namespace proj {

using DescriptorMatrix = Eigen::Matrix<float, Eigen::Dynamic, kSiftDescriptorSize, Eigen::RowMajor>;

// One row per keypoint, each of unit L2 norm (RootSIFT or plain L2-normalised SIFT).
DescriptorMatrix NormalizedDescriptors(const FeatureSet& features, bool root_sift);

}  // namespace proj
