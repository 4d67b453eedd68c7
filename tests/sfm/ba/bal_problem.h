// Reader for "Bundle Adjustment in the Large" problems (Agarwal et al., ECCV 2010), converted to
// this project's conventions, for tests and benchmarks of the bundle adjuster.
#pragma once

#include <string>

#include "sfm/scene/scene.h"

namespace proj::testing {

// BAL cameras look down -Z with y up: p = -P / P.z, pixel = f (1 + k1 |p|^2 + k2 |p|^4) p, with
// the origin at the image centre. Ours look down +Z with y down, so each pose is premultiplied
// by diag(1, -1, -1) and each observation (u, v) becomes (u, -v). Every BAL camera becomes one
// RADIAL Camera (f, cx = 0, cy = 0, k1, k2) and one registered image; image size is unknown
// and set to 0. Throws InputError naming the file for malformed content.
Scene LoadBalProblem(const std::string& path);

}  // namespace proj::testing
