// A small synthetic model for the export tests, with images whose content locates its points:
// each point a Gaussian dot drawn where the (distorted) camera sees it, so the exported
// undistorted images can be checked against the exported cameras without any matching.
#pragma once

#include <string>

#include "sfm/scene/scene.h"

namespace proj::testing {

struct ExportTestScene {
  Scene scene;             // registered images, points, observations (exact projections)
  std::string images_dir;  // the images, PNG, named as in the scene (one in a sub-folder)
};

// Eight images on a ring around a cube of points. With `two_cameras` the images alternate
// between a SIMPLE_RADIAL 160x120 camera (k1 = -0.15) and a RADIAL 200x150 one; otherwise
// all share the SIMPLE_RADIAL one. Images are written into DIR/images.
ExportTestScene MakeExportTestScene(const std::string& dir, bool two_cameras);

// Standard deviation of the dots, px.
constexpr double kDotSigmaPx = 1.2;

}  // namespace proj::testing
