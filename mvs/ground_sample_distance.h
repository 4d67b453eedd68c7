// The ground sample distance of a survey: how many metres of the ground one pixel of its
// images covers, from the sparse model alone (no flight height or sensor size needed).
#pragma once

#include <optional>

#include "sfm/scene/scene.h"

namespace proj::mvs {

// For each registered image, the median depth of the sparse points it observes (for a nadir
// photo: its height above the ground) over its focal length in pixels at the size the images
// are used at (scaled down to `max_image_size_px` on the long side, as the dense stage does;
// 0: full size); the median of that over the images. In the model's length unit (metres for
// a georeferenced model). std::nullopt when no registered image observes a point in front
// of it.
std::optional<double> GroundSampleDistance(const Scene& scene, int max_image_size_px);

}  // namespace proj::mvs
