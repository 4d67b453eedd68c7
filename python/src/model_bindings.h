// gpusfm.Model and its parts: cameras, images and 3D points of a reconstruction (the
// project's Scene), with numpy views of their numbers, read from and written to COLMAP's
// text and binary models (sfm/reconstruction_io).
//
// Ids are COLMAP's, as in the model files: camera, image and point ids from 1 (the Scene's
// indices + 1). As in COLMAP models, only registered images are listed, a track keeps its
// observations in registered images and a point without any is left out: the Python model is
// what its files hold.
#pragma once

#include <memory>

#include <pybind11/pybind11.h>

#include "sfm/scene/scene.h"

namespace proj::python {

void BindModel(pybind11::module_& module);

// The Python Model of `scene` (which may share ownership with what holds it).
pybind11::object ModelObject(std::shared_ptr<Scene> scene);

}  // namespace proj::python
