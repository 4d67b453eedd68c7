#include <filesystem>
#include <limits>
#include <ostream>
#include <utility>

#include "core/check.h"
#include "geometry/camera/colmap_camera_models.h"
#include "io/atomic_file.h"
#include "io/little_endian.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_written_subset.h"

namespace proj {
namespace {

using internal::InRegisteredImage;
using internal::NumRegisteredObservations;

// COLMAP's "no 3D point" marker in images.bin (kInvalidPoint3DId).
constexpr uint64_t kNoPoint = std::numeric_limits<uint64_t>::max();

std::string EncodeCameras(const Scene& scene) {
  std::string out;
  AppendLittleEndian<uint64_t>(scene.cameras.size(), &out);
  for (size_t id = 0; id < scene.cameras.size(); ++id) {
    const Camera& camera = scene.cameras[id];
    AppendLittleEndian<uint32_t>(static_cast<uint32_t>(id + 1), &out);
    AppendLittleEndian<int32_t>(ColmapCameraModelId(camera.model), &out);
    AppendLittleEndian<uint64_t>(static_cast<uint64_t>(camera.width), &out);
    AppendLittleEndian<uint64_t>(static_cast<uint64_t>(camera.height), &out);
    for (const double param : camera.params) AppendLittleEndian<double>(param, &out);
  }
  return out;
}

std::string EncodeImages(const Scene& scene) {
  std::string out;
  AppendLittleEndian<uint64_t>(scene.NumRegisteredImages(), &out);
  for (size_t id = 0; id < scene.images.size(); ++id) {
    const SceneImage& image = scene.images[id];
    if (!image.registered) continue;
    const Eigen::Quaterniond q = image.cam_from_world.rotation.normalized();
    const Eigen::Vector3d& t = image.cam_from_world.translation;
    AppendLittleEndian<uint32_t>(static_cast<uint32_t>(id + 1), &out);
    for (const double v : {q.w(), q.x(), q.y(), q.z(), t.x(), t.y(), t.z()}) {
      AppendLittleEndian<double>(v, &out);
    }
    AppendLittleEndian<uint32_t>(static_cast<uint32_t>(image.camera_id + 1), &out);
    out.append(image.name.c_str(), image.name.size() + 1);  // with its terminating '\0'
    AppendLittleEndian<uint64_t>(image.keypoints.size(), &out);
    for (size_t k = 0; k < image.keypoints.size(); ++k) {
      const int point_id = k < image.point3d_ids.size() ? image.point3d_ids[k] : kInvalidId;
      AppendLittleEndian<double>(image.keypoints[k].x(), &out);
      AppendLittleEndian<double>(image.keypoints[k].y(), &out);
      AppendLittleEndian<uint64_t>(point_id == kInvalidId ? kNoPoint : point_id + 1, &out);
    }
  }
  return out;
}

std::string EncodePoints(const Scene& scene) {
  std::string out;
  uint64_t num_points = 0;
  for (const auto& [id, point] : scene.points) {
    num_points += NumRegisteredObservations(scene, point) > 0 ? 1 : 0;
  }
  AppendLittleEndian<uint64_t>(num_points, &out);
  for (const auto& [id, point] : scene.points) {
    const int track_length = NumRegisteredObservations(scene, point);
    if (track_length == 0) continue;
    AppendLittleEndian<uint64_t>(id + 1, &out);
    for (int i = 0; i < 3; ++i) AppendLittleEndian<double>(point.position[i], &out);
    for (int i = 0; i < 3; ++i) AppendLittleEndian<uint8_t>(point.color[i], &out);
    AppendLittleEndian<double>(point.mean_error_px, &out);
    AppendLittleEndian<uint64_t>(track_length, &out);
    for (const auto& element : point.track) {
      if (!InRegisteredImage(scene, element)) continue;
      AppendLittleEndian<uint32_t>(static_cast<uint32_t>(element.image_id + 1), &out);
      AppendLittleEndian<uint32_t>(static_cast<uint32_t>(element.keypoint_index), &out);
    }
  }
  return out;
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  WriteFileAtomically(
      path, [&](std::ostream& out) { out.write(bytes.data(), bytes.size()); }, /*binary=*/true);
}

}  // namespace

void WriteColmapBinary(const Scene& scene, const std::string& dir) {
  namespace fs = std::filesystem;
  EnsureWritableDirectory(dir);
  WriteBytes((fs::path(dir) / "cameras.bin").string(), EncodeCameras(scene));
  WriteBytes((fs::path(dir) / "images.bin").string(), EncodeImages(scene));
  WriteBytes((fs::path(dir) / "points3D.bin").string(), EncodePoints(scene));
}

}  // namespace proj
