// Resampling an image to its undistorted camera (undistorted_camera.h).
#pragma once

#include "geometry/camera/camera.h"
#include "io/image.h"

namespace proj {

// The image `pinhole` would have taken: each output pixel centre is mapped by DistortPixel
// into `image` (taken by `camera`, same size) and read with bilinear interpolation; positions
// within half a pixel of the border read the edge pixels, positions outside the image give
// black. Keeps the channel count. Single-threaded: callers run images in parallel.
Image UndistortImage(const Image& image, const Camera& camera, const Camera& pinhole);

// Bilinear interpolation of channel `channel` at (u, v) in pixels (top-left pixel centre at
// (0.5, 0.5)); false when (u, v) is outside [0, width] x [0, height].
bool SampleBilinear(const Image& image, double u, double v, int channel, double* value);

}  // namespace proj
