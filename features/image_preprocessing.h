// Turns a decoded image into the extractor's input: grey in [0, 1], downscaled so its longer
// side is at most `max_image_size` (area interpolation, so no aliasing).
#pragma once

#include "features/feature_types.h"
#include "io/image.h"

namespace proj {

// Rec. 601 luma of an RGB image, or the grey channel, scaled to [0, 1].
GrayImage ToGrayImage(const Image& image);

// Downscales when the longer side exceeds max_image_size (<= 0: never). `scale` receives the
// factor from the returned image's pixels to the input's (>= 1).
GrayImage LimitImageSize(const GrayImage& image, int max_image_size, double* scale);

// Maps keypoints of a downscaled image back to the original image's pixels.
void ScaleKeypoints(double scale, FeatureSet* features);

}  // namespace proj
