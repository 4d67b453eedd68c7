#include "sfm/image_source/image_source.h"

#include <filesystem>

#include "core/check.h"

namespace proj {

ImageSource::ImageSource(const std::vector<std::string>& folders) {
  for (const std::string& folder : folders) {
    if (!folder.empty()) folders_.push_back(folder);
  }
}

std::string ImageSource::Resolve(const std::string& name) const {
  namespace fs = std::filesystem;
  std::string searched;
  for (const std::string& folder : folders_) {
    const fs::path path = fs::path(folder) / name;
    std::error_code error;
    if (fs::is_regular_file(path, error)) return path.string();
    searched += (searched.empty() ? "'" : ", '") + folder + "'";
  }
  throw InputError("image '" + name + "' is in none of the image folders (" +
                   (searched.empty() ? std::string("none given") : searched) + ")");
}

}  // namespace proj
