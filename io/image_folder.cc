#include "io/image_folder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/check.h"

namespace proj {
namespace fs = std::filesystem;

namespace {

std::string LowerCaseExtension(const std::string& file_name) {
  const size_t dot = file_name.rfind('.');
  if (dot == std::string::npos) return "";
  std::string extension = file_name.substr(dot + 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

std::vector<std::string> ListFiles(const std::string& folder, bool (*wanted)(const std::string&)) {
  std::error_code error;
  const fs::file_status status = fs::status(folder, error);
  PROJ_REQUIRE(fs::exists(status), "image folder '" << folder << "' does not exist");
  PROJ_REQUIRE(fs::is_directory(status), "image folder '" << folder << "' is not a folder");
  fs::directory_iterator it(folder, error);
  PROJ_REQUIRE(!error, "cannot read image folder '" << folder << "': " << error.message());
  std::vector<std::pair<std::string, std::string>> entries;  // (name, path)
  for (; it != fs::directory_iterator(); it.increment(error)) {
    PROJ_REQUIRE(!error, "cannot read image folder '" << folder << "': " << error.message());
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || !wanted(name)) continue;
    std::error_code type_error;
    if (!fs::is_regular_file(it->path(), type_error)) {  // follows links
      // A link loop or a link to nowhere is listed, to be skipped with its reason when read.
      const bool broken_link = fs::is_symlink(it->symlink_status(type_error)) &&
                               !fs::exists(fs::status(it->path(), type_error));
      if (!broken_link) continue;
    }
    entries.emplace_back(name, it->path().string());
  }
  std::sort(entries.begin(), entries.end());
  std::vector<std::string> paths;
  paths.reserve(entries.size());
  for (auto& entry : entries) paths.push_back(std::move(entry.second));
  return paths;
}

}  // namespace

bool HasImageExtension(const std::string& file_name) {
  const std::string extension = LowerCaseExtension(file_name);
  return extension == "jpg" || extension == "jpeg" || extension == "png";
}

bool HasVideoExtension(const std::string& file_name) {
  static const char* const kExtensions[] = {"mp4", "m4v", "mov", "mkv", "webm", "avi", "mts",
                                            "m2ts", "mpg", "mpeg", "wmv", "flv", "3gp", "ts"};
  const std::string extension = LowerCaseExtension(file_name);
  return std::any_of(std::begin(kExtensions), std::end(kExtensions),
                     [&](const char* known) { return extension == known; });
}

std::vector<std::string> ListImageFiles(const std::string& folder) {
  return ListFiles(folder, HasImageExtension);
}

std::vector<std::string> ListVideoFiles(const std::string& folder) {
  return ListFiles(folder, HasVideoExtension);
}

}  // namespace proj
