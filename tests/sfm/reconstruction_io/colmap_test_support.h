// Shared by the COLMAP model tests (text, binary, COLMAP itself): small scenes and checks.
#pragma once

#include <string>

#include "sfm/scene.h"

namespace proj::testing {

std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);

// Registered images, cameras and points must be identical (gtest failures otherwise).
void ExpectScenesEqual(const Scene& a, const Scene& b);

// Cameras 0 (PINHOLE) and 1 (SIMPLE_RADIAL); images 0 and 2 registered, image 1 not; points
// 0 and 2 (id 1 deleted), point 2 also observed by the unregistered image.
Scene MakeSmallScene();

}  // namespace proj::testing
