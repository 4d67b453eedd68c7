// The small synthetic ring the pipeline tests share: 640x480 views with a wide field of view
// (focal 550 px), fast on two cores. 12 views register fully; fewer views are 30+ deg apart.
#pragma once

#include <string>

namespace proj::testing {

// Writes the scene into a fresh temporary folder `name` (images/, gt_dense_cameras/, depth/)
// and returns the folder. Sets the log level to warnings (the tests' own output stays
// readable). Another `width` scales the height and focal length with it (same field of view).
std::string WriteSmallRingScene(const std::string& name, int num_images, int width = 640);

}  // namespace proj::testing
