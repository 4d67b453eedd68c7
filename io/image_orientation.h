// EXIF orientation (TIFF tag 0x0112) as a pixel transform.
#pragma once

#include "io/image.h"

namespace proj {

// Returns the upright image for a stored image with EXIF orientation 1..8:
// 1 as is, 2 mirror left-right, 3 rotate 180, 4 mirror top-bottom, 5 transpose,
// 6 rotate 90 deg clockwise, 7 transverse, 8 rotate 90 deg counter-clockwise.
// Orientations 5..8 swap width and height. Values outside 1..8 are treated as 1.
Image ApplyExifOrientation(const Image& stored, int orientation);

// True for the orientations (5..8) that swap width and height.
inline bool OrientationSwapsAxes(int orientation) { return orientation >= 5 && orientation <= 8; }

}  // namespace proj
