// What the COLMAP readers promise about a model they return (sfm/reconstruction_io): every id
// in range and tracks that agree with the images' point ids. The mapper and exporters index
// with these ids unchecked, so a reader that let a bad one through is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sfm/scene/scene.h"

namespace proj::fuzz {

// Aborts (PROJ_CHECK) naming the first broken promise.
void CheckSceneConsistency(const Scene& scene);

// One fuzz run of a COLMAP reader: `data` split into cameras, images and points3D files with
// extension `ext` (".txt", ".bin"), read from their folder by `read`; InputError is the
// expected outcome of bad input, a model that reads must pass CheckSceneConsistency.
void FuzzColmapReader(const uint8_t* data, size_t size, const std::string& ext,
                      Scene (*read)(const std::string& dir));

}  // namespace proj::fuzz
