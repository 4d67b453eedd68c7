// A wide, cheap low-pass filter of a float plane: three box blurs (running sums, O(1) per
// value whatever the radius), close to a Gaussian of sigma = sqrt(radius (radius + 1)) (Wells
// 1986). What the orthophoto blends its seams with.
#pragma once

#include <vector>

namespace proj::mvs {

// Blurs the row-major `width` x `height` plane in place with three box blurs of 2 radius + 1
// values along each axis; values outside the plane count as 0 (not renormalized: divide by the
// blurred coverage for a normalized convolution). The support is 3 radius on each side.
// `scratch` is reused between calls.
void BlurPlane(int width, int height, int radius, std::vector<float>* plane, std::vector<float>* scratch);

}  // namespace proj::mvs
