// A model given on the command line and where its images are (sfm undistort, export, dense).
#pragma once

#include <string>

#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"

namespace proj::app {

// `image_path` when given (InputError unless it is a folder), else the folders recorded in
// MODEL_DIR/image_source.json when the model was written (InputError saying to give
// --image-path when there is none).
ImageSource ModelImageSource(const std::string& model_dir, const std::string& image_path);

struct ModelWithImages {
  Scene scene;
  ImageSource images;
};

// The COLMAP model (text or binary) in `model_dir` and ModelImageSource(model_dir, image_path).
// InputError naming the folder when it is missing or holds no model, and the readers' errors.
ModelWithImages ReadModelWithImages(const std::string& model_dir, const std::string& image_path);

}  // namespace proj::app
