#include "mvs/dense_undistortion.h"

#include <filesystem>
#include <optional>
#include <unordered_set>

#include "core/check.h"
#include "core/logging.h"
#include "io/file_stamp.h"
#include "io/image_decode.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/undistort/model_undistorter.h"
#include "sfm/undistort/undistort_scene.h"

namespace proj::mvs {
namespace {

// What the undistorted image of `image` is computed from; nullopt when its photo cannot be
// found (undistortion then says why).
std::optional<uint64_t> UndistortedImageHash(const SceneImage& image, const Camera& camera,
                                             const ImageSource& images, const UndistortOptions& options) {
  FileStamp stamp;
  try {
    stamp = ReadFileStamp(images.Resolve(image.name));
  } catch (const InputError&) {
    return std::nullopt;
  }
  InputHash hash;
  hash.Add(std::string("undistorted image 1")).Add(static_cast<int>(camera.model)).Add(camera.width).Add(camera.height);
  for (const double param : camera.params) hash.Add(param);
  hash.Add(options.camera.max_image_size_px).Add(options.camera.min_scale).Add(options.camera.max_scale);
  hash.Add(options.jpeg_quality).Add(stamp.size).Add(stamp.modification_time_ns);
  return hash.value();
}

// Whether an earlier run's undistorted image is there, of its camera's size.
bool UndistortedImageIsThere(const std::string& path, const Camera& pinhole) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  try {
    const ImageInfo info = ReadImageHeader(path);
    return info.width == pinhole.width && info.height == pinhole.height;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace

DenseUndistortion UndistortIntoWorkspace(const Scene& scene, const ImageSource& images,
                                         const DenseWorkspace& workspace, const UndistortCameraOptions& options,
                                         int num_threads, ResumeRecord* record) {
  UndistortOptions undistort;
  undistort.camera = options;
  undistort.num_threads = num_threads;
  undistort.Check();
  PROJ_REQUIRE(scene.NumRegisteredImages() > 0, "the model has no registered image: nothing to densify");
  Scene pinhole = UndistortScene(scene, options);
  DenseUndistortion result;
  result.image_hashes.assign(scene.images.size(), 0);
  // Only the images to undistort, without keypoints or points: UndistortModel's sparse/ is
  // replaced below by the whole model.
  Scene to_undistort;
  to_undistort.cameras = scene.cameras;
  to_undistort.images.resize(scene.images.size());
  for (size_t id = 0; id < scene.images.size(); ++id) {
    const SceneImage& image = scene.images[id];
    if (!image.registered) continue;
    const std::optional<uint64_t> hash =
        UndistortedImageHash(image, scene.cameras[image.camera_id], images, undistort);
    const std::string path = workspace.ImagesDir() + "/" + image.name;
    if (hash && record->Get(ResumeKind::kUndistortedImage, image.name) == hash &&
        UndistortedImageIsThere(path, pinhole.cameras[image.camera_id])) {
      result.image_hashes[id] = *hash;
      ++result.num_reused;
      continue;
    }
    record->Erase(ResumeKind::kUndistortedImage, image.name);
    SceneImage& todo = to_undistort.images[id];
    todo.name = image.name;
    todo.camera_id = image.camera_id;
    todo.registered = true;
    todo.cam_from_world = image.cam_from_world;
    if (hash) result.image_hashes[id] = *hash;
  }
  if (result.num_reused > 0) {
    PROJ_LOG(kInfo, "dense: " << result.num_reused << " undistorted images of an earlier run reused");
  }
  if (to_undistort.NumRegisteredImages() > 0) {
    // The lines of the images about to be rewritten go first: a run killed while it writes
    // them must not leave a line vouching for a file that no longer matches it.
    record->Write();
    const UndistortReport report = UndistortModel(to_undistort, images, workspace.root(), undistort);
    result.num_written = report.num_written;
    for (const SkippedUndistortImage& skipped : report.skipped) {
      result.skipped.push_back({skipped.name, "not undistorted: " + skipped.reason});
    }
  }
  std::unordered_set<std::string> skipped;
  for (const SkippedDenseImage& entry : result.skipped) skipped.insert(entry.name);
  for (size_t id = 0; id < scene.images.size(); ++id) {
    SceneImage& image = pinhole.images[id];
    if (!image.registered || !to_undistort.images[id].registered) continue;
    if (skipped.count(image.name) > 0 || result.image_hashes[id] == 0) {
      image.registered = false;  // left out of sparse/ with its observations (colmap_text.h)
      result.image_hashes[id] = 0;
    } else {
      record->Set(ResumeKind::kUndistortedImage, image.name, result.image_hashes[id]);
    }
  }
  if (pinhole.NumRegisteredImages() == 0) {
    PROJ_CHECK(!result.skipped.empty(), "no image undistorted, none skipped");
    throw InputError("no image of the model could be undistorted (" + std::to_string(result.skipped.size()) +
                     " skipped); the first, '" + result.skipped.front().name + "': " + result.skipped.front().reason);
  }
  WriteColmapText(pinhole, workspace.SparseDir());
  result.pinhole = ReadColmapText(workspace.SparseDir());
  return result;
}

}  // namespace proj::mvs
