// Where the images of a model given on the command line are (sfm undistort, sfm dense).
#pragma once

#include <string>

#include "sfm/image_source/image_source.h"

namespace proj::app {

// `image_path` when given (InputError unless it is a folder), else the folders recorded in
// MODEL_DIR/image_source.json when the model was written (InputError saying to give
// --image-path when there is none).
ImageSource ModelImageSource(const std::string& model_dir, const std::string& image_path);

}  // namespace proj::app
