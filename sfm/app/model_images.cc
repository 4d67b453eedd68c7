#include "sfm/app/model_images.h"

#include <filesystem>

#include "core/check.h"

namespace proj::app {

ImageSource ModelImageSource(const std::string& model_dir, const std::string& image_path) {
  if (!image_path.empty()) {
    PROJ_REQUIRE(std::filesystem::is_directory(image_path), "--image-path '" << image_path << "' is not a folder");
    return ImageSource({image_path});
  }
  const std::string recorded = (std::filesystem::path(model_dir) / kImageSourceFileName).string();
  PROJ_REQUIRE(std::filesystem::exists(recorded),
               "the model '" << model_dir << "' does not say where its images are (no " << kImageSourceFileName
                             << "): give them with --image-path DIR");
  return ReadImageSource(recorded);
}

}  // namespace proj::app
