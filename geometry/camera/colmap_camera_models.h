// COLMAP's camera models (src/colmap/sensor/models.h): the id, name and parameter count of
// each, and the model of ours that each one we accept is read as. The one table for every
// COLMAP reader and writer: the scene database (sfm/database/) and the text and binary
// models (sfm/reconstruction_io/).
//
// SIMPLE_PINHOLE (f, cx, cy) is accepted everywhere and read as our PINHOLE with fx = fy = f:
// the same projection exactly. Cameras are written with their own model, so a SIMPLE_PINHOLE
// read comes back as PINHOLE (the same camera to COLMAP).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "geometry/camera/camera_models.h"

namespace proj {

struct ColmapCameraModel {
  int id;                             // COLMAP's CameraModel::model_id
  const char* name;                   // COLMAP's model name
  int num_params;                     // parameters COLMAP stores
  std::optional<CameraModelId> ours;  // the model we read it as; none: not supported
  // Our params[i] is COLMAP's params[ours_from_colmap[i]] (CameraModelNumParams(*ours) used).
  std::array<int, 5> ours_from_colmap;
};

// COLMAP's model with this id or name (names case-insensitively); nullptr when COLMAP has
// none. A model we do not support is found, with `ours` empty (for its name in messages).
const ColmapCameraModel* FindColmapCameraModel(int id);
const ColmapCameraModel* FindColmapCameraModel(const std::string& name);

// The COLMAP id a camera of ours is written with.
int ColmapCameraModelId(CameraModelId model);

// Our parameters from COLMAP's (model.num_params values) of a supported model.
std::vector<double> ParamsFromColmap(const ColmapCameraModel& model, const double* colmap_params);

// "SIMPLE_PINHOLE, PINHOLE, SIMPLE_RADIAL, RADIAL": the models we read, for error messages.
std::string SupportedColmapCameraModels();

}  // namespace proj
