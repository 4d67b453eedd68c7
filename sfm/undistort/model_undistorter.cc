#include "sfm/undistort/model_undistorter.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "io/atomic_file.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/undistort/undistort_image.h"
#include "sfm/undistort/undistort_scene.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

bool HasPngExtension(const std::string& name) {
  std::string extension = fs::path(name).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".png";
}

// Reads, undistorts and writes one image; throws InputError with the reason it cannot.
void UndistortImageFile(const SceneImage& image, const Camera& camera, const Camera& pinhole,
                        const ImageSource& images, const std::string& images_out, int jpeg_quality) {
  const Image decoded = ReadImageFile(images.Resolve(image.name));
  PROJ_REQUIRE(decoded.width == camera.width && decoded.height == camera.height,
               "it is " << decoded.width << "x" << decoded.height << " pixels, its camera "
                        << camera.width << "x" << camera.height);
  const Image undistorted = UndistortImage(decoded, camera, pinhole);
  const fs::path path = fs::path(images_out) / image.name;
  EnsureWritableDirectory(path.parent_path().string());  // names may hold sub-folders
  if (HasPngExtension(image.name)) {
    WritePng(path.string(), undistorted);
  } else {
    WriteJpeg(path.string(), undistorted, jpeg_quality);
  }
}

}  // namespace

void UndistortOptions::Check() const {
  camera.Check();
  PROJ_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "JPEG quality must be in [1, 100], not " << jpeg_quality);
}

UndistortReport UndistortImages(const Scene& scene, const ImageSource& images, const std::string& images_dir,
                                const UndistortOptions& options, Scene* undistorted) {
  options.Check();
  *undistorted = UndistortScene(scene, options.camera);
  EnsureWritableDirectory(images_dir);
  std::vector<int> image_ids;
  for (size_t id = 0; id < scene.images.size(); ++id) {
    if (scene.images[id].registered) image_ids.push_back(static_cast<int>(id));
  }
  std::vector<std::string> errors(image_ids.size());
  {
    Progress progress("undistorting images", static_cast<int>(image_ids.size()), "images");
    ParallelFor(0, static_cast<int>(image_ids.size()), options.num_threads, [&](int k, int) {
      ThrowIfInterrupted();
      const SceneImage& image = scene.images[image_ids[k]];
      try {
        UndistortImageFile(image, scene.cameras[image.camera_id], undistorted->cameras[image.camera_id], images,
                           images_dir, options.jpeg_quality);
      } catch (const InputError& error) {
        errors[k] = error.what();
      }
      progress.Advance();
    });
  }
  UndistortReport report;
  for (size_t k = 0; k < image_ids.size(); ++k) {
    SceneImage& image = undistorted->images[image_ids[k]];
    if (errors[k].empty()) {
      ++report.num_written;
      continue;
    }
    PROJ_LOG(kWarning, "undistort: skipped '" << image.name << "': " << errors[k]);
    report.skipped.push_back({image.name, errors[k]});
    image.registered = false;  // left out of the written models with its observations
  }
  return report;
}

UndistortReport UndistortModel(const Scene& scene, const ImageSource& images, const std::string& out_dir,
                               const UndistortOptions& options) {
  Scene undistorted;
  const UndistortReport report =
      UndistortImages(scene, images, (fs::path(out_dir) / "images").string(), options, &undistorted);
  if (report.num_written > 0) WriteColmapText(undistorted, (fs::path(out_dir) / "sparse").string());
  return report;
}

}  // namespace proj
