#include "sfm/reconstruction_io/colmap_model_builder.h"

#include <algorithm>

#include "core/check.h"

namespace proj::internal {
namespace {

template <typename T>
void GrowTo(std::vector<T>* v, size_t size, const T& filler) {
  if (v->size() < size) v->resize(size, filler);
}

// Camera and image ids index vectors, so every id below the largest one is held in memory (as
// a placeholder when unused): a file of a few bytes naming IMAGE_ID 1,000,000,000 would ask
// for hundreds of gigabytes. COLMAP ids count images of a database (never reused), so a
// million is far beyond real models; point ids are kept in a map and have no such limit.
constexpr long long kMaxCameraOrImageId = 1 << 20;

void RequireIndexableId(long long colmap_id, const SourcePosition& at, const char* what) {
  PROJ_REQUIRE(colmap_id <= kMaxCameraOrImageId,
               at.Where() << ": " << what << " " << colmap_id << " too large (at most "
                          << kMaxCameraOrImageId << " is supported)");
}

Camera PlaceholderCamera() {
  Camera camera;
  camera.params.assign(CameraModelNumParams(camera.model), 0.0);
  return camera;
}

}  // namespace

int ColmapModelBuilder::ToIndex(long long colmap_id, const SourcePosition& at, const char* what) {
  PROJ_REQUIRE(colmap_id >= 1 && colmap_id <= (1 << 30),
               at.Where() << ": " << what << " " << colmap_id
                          << " out of range (COLMAP ids start at 1)");
  return static_cast<int>(colmap_id - 1);
}

void ColmapModelBuilder::AddCamera(long long colmap_id, const Camera& camera,
                                   const SourcePosition& at) {
  const int id = ToIndex(colmap_id, at, "CAMERA_ID");
  RequireIndexableId(colmap_id, at, "CAMERA_ID");
  PROJ_REQUIRE(camera.width >= 0 && camera.height >= 0, at.Where() << ": negative image size");
  GrowTo(&scene_.cameras, id + 1, PlaceholderCamera());
  GrowTo(&camera_defined_, id + 1, char{0});
  PROJ_REQUIRE(!camera_defined_[id], at.Where() << ": duplicate CAMERA_ID " << id + 1);
  camera_defined_[id] = 1;
  scene_.cameras[id] = camera;
}

SceneImage* ColmapModelBuilder::AddImage(long long colmap_id, const Eigen::Quaterniond& q,
                                         const Eigen::Vector3d& t, long long colmap_camera_id,
                                         std::string name, const SourcePosition& at) {
  const int id = ToIndex(colmap_id, at, "IMAGE_ID");
  RequireIndexableId(colmap_id, at, "IMAGE_ID");
  GrowTo(&scene_.images, id + 1, SceneImage{});
  SceneImage& image = scene_.images[id];
  PROJ_REQUIRE(!image.registered, at.Where() << ": duplicate IMAGE_ID " << id + 1);
  PROJ_REQUIRE(q.norm() > 1e-12, at.Where() << ": zero quaternion");
  image.cam_from_world = Rigid3d(q.normalized(), t);
  image.camera_id = ToIndex(colmap_camera_id, at, "CAMERA_ID");
  PROJ_REQUIRE(image.camera_id < static_cast<int>(camera_defined_.size()) &&
                   camera_defined_[image.camera_id],
               at.Where() << ": CAMERA_ID " << image.camera_id + 1 << " is not in cameras"
                          << extension_);
  image.name = std::move(name);
  image.registered = true;
  return &image;
}

void ColmapModelBuilder::AddKeypoint(SceneImage* image, double x, double y,
                                     long long colmap_point_id, const SourcePosition& at) {
  PROJ_REQUIRE(colmap_point_id == -1 || (colmap_point_id >= 1 && colmap_point_id <= (1 << 30)),
               at.Where() << ": POINT3D_ID " << colmap_point_id << " out of range");
  image->keypoints.emplace_back(x, y);
  image->point3d_ids.push_back(colmap_point_id == -1 ? kInvalidId
                                                     : static_cast<int>(colmap_point_id - 1));
}

void ColmapModelBuilder::AddPoint(long long colmap_id, Point3D point,
                                  const std::vector<std::pair<long long, long long>>& track,
                                  const SourcePosition& at) {
  const int id = ToIndex(colmap_id, at, "POINT3D_ID");
  PROJ_REQUIRE(scene_.points.count(id) == 0, at.Where() << ": duplicate POINT3D_ID " << id + 1);
  point.track.clear();
  for (const auto& [colmap_image_id, index] : track) {
    TrackElement element;
    element.image_id = ToIndex(colmap_image_id, at, "IMAGE_ID");
    PROJ_REQUIRE(element.image_id < static_cast<int>(scene_.images.size()) &&
                     scene_.images[element.image_id].registered,
                 at.Where() << ": IMAGE_ID " << element.image_id + 1 << " is not in images"
                            << extension_);
    const SceneImage& image = scene_.images[element.image_id];
    PROJ_REQUIRE(index >= 0 && index < static_cast<long long>(image.keypoints.size()),
                 at.Where() << ": POINT2D_IDX " << index << " out of range for image "
                            << element.image_id + 1);
    element.keypoint_index = static_cast<int>(index);
    PROJ_REQUIRE(image.point3d_ids[index] == id,
                 at.Where() << ": track element (" << element.image_id + 1 << ", " << index
                            << ") disagrees with images" << extension_
                            << ", which gives POINT3D_ID "
                            << (image.point3d_ids[index] == kInvalidId
                                    ? -1
                                    : image.point3d_ids[index] + 1));
    point.track.push_back(element);
  }
  scene_.points.emplace(id, std::move(point));
  scene_.next_point_id = std::max(scene_.next_point_id, id + 1);
}

Scene ColmapModelBuilder::Finish(const std::string& images_path) {
  for (size_t image_id = 0; image_id < scene_.images.size(); ++image_id) {
    const SceneImage& image = scene_.images[image_id];
    for (size_t k = 0; k < image.point3d_ids.size(); ++k) {
      const int point_id = image.point3d_ids[k];
      if (point_id == kInvalidId) continue;
      const auto it = scene_.points.find(point_id);
      bool listed = false;
      if (it != scene_.points.end()) {
        for (const auto& e : it->second.track) {
          listed |=
              e.image_id == static_cast<int>(image_id) && e.keypoint_index == static_cast<int>(k);
        }
      }
      PROJ_REQUIRE(listed, images_path << ": image " << image_id + 1 << " keypoint " << k
                                       << " observes POINT3D_ID " << point_id + 1
                                       << ", whose track in points3D" << extension_
                                       << " does not list it");
    }
  }
  return std::move(scene_);
}

}  // namespace proj::internal
