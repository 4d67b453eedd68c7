// gpusfm.Database: a scene database (sfm/database/scene_database.h, COLMAP's schema) opened
// read-only, its keypoints, descriptors, matches and two-view geometries as numpy arrays. Ids
// are the database's (COLMAP's, from 1).
#pragma once

#include <pybind11/pybind11.h>

namespace proj::python {

void BindDatabase(pybind11::module_& module);

}  // namespace proj::python
