// Shared by the COLMAP model tests (text, binary, COLMAP itself): small scenes and checks.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sfm/scene/scene.h"

namespace proj::testing {

std::string ReadText(const std::string& path);
void WriteText(const std::string& path, const std::string& text);

// Registered images, cameras and points must be identical (gtest failures otherwise).
void ExpectScenesEqual(const Scene& a, const Scene& b);

// Expects `read` to throw InputError whose message holds every string in `fragments`.
void ExpectInputError(const std::function<void()>& read, const std::vector<std::string>& fragments);

// Cameras 0 (PINHOLE) and 1 (SIMPLE_RADIAL); images 0 and 2 registered, image 1 not; points
// 0 and 2 (id 1 deleted), point 2 also observed by the unregistered image.
Scene MakeSmallScene();

}  // namespace proj::testing
