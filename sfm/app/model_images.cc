#include "sfm/app/model_images.h"

#include <filesystem>

#include "core/check.h"
#include "sfm/reconstruction_io/colmap_model.h"

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

ModelWithImages ReadModelWithImages(const std::string& model_dir, const std::string& image_path) {
  PROJ_REQUIRE(std::filesystem::is_directory(model_dir),
               "model folder '" << model_dir << "' does not exist or is not a folder");
  ModelWithImages model;
  model.scene = ReadColmapModel(model_dir);
  model.images = ModelImageSource(model_dir, image_path);
  return model;
}

}  // namespace proj::app
