// Where a model's images are: an ordered list of folders (the photos' folder, then the folder
// of picked video frames, ...). An image name (SceneImage::name, a path relative to a folder)
// resolves to the first folder that holds it. A written model records its source in
// MODEL_DIR/image_source.json, so commands that take a model (sfm undistort) find the images
// without being told again.
#pragma once

#include <string>
#include <vector>

namespace proj {

// The file, beside cameras.txt in a model folder, that records the model's ImageSource.
constexpr const char* kImageSourceFileName = "image_source.json";

class ImageSource {
 public:
  ImageSource() = default;
  // Empty entries are dropped; the order is the lookup order.
  explicit ImageSource(const std::vector<std::string>& folders);

  const std::vector<std::string>& folders() const { return folders_; }
  bool empty() const { return folders_.empty(); }

  // FOLDER/name for the first folder where that file exists. Throws InputError naming the
  // image and every folder searched when none holds it.
  std::string Resolve(const std::string& name) const;

 private:
  std::vector<std::string> folders_;
};

// Writes `source` to `path` as JSON, atomically (io/atomic_file.h), the folders made absolute
// so the file stays valid wherever the model is read from:
//   {"folders": ["/data/photos", "/data/out/frames"]}
// Throws InputError naming the path when it cannot be written.
void WriteImageSource(const ImageSource& source, const std::string& path);

// Reads a file written by WriteImageSource. Throws InputError naming the path when the file
// is missing or is not of that form.
ImageSource ReadImageSource(const std::string& path);

}  // namespace proj
