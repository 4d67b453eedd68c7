// Shared by the COLMAP text and binary readers: turns COLMAP's records (ids from 1) into a
// Scene (ids from 0) and checks what both formats promise, so the two readers accept and
// refuse the same models with the same messages. Gaps in camera and image ids become
// placeholders (see ReadColmapText).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "sfm/scene/scene.h"

namespace proj::internal {

// Where a reader is in its file, for error messages ("DIR/images.txt:12").
class SourcePosition {
 public:
  virtual ~SourcePosition() = default;
  virtual std::string Where() const = 0;
};

class ColmapModelBuilder {
 public:
  // `extension` (".txt" or ".bin") names the files of the model in messages.
  explicit ColmapModelBuilder(std::string extension) : extension_(std::move(extension)) {}

  // A COLMAP id (>= 1) as our 0-based index; throws InputError naming `what` otherwise.
  static int ToIndex(long long colmap_id, const SourcePosition& at, const char* what);

  // `camera.params` must already hold the model's parameter count.
  void AddCamera(long long colmap_id, const Camera& camera, const SourcePosition& at);
  // Registers an image; its keypoints follow through AddKeypoint. `q` need not be normalised.
  SceneImage* AddImage(long long colmap_id, const Eigen::Quaterniond& q, const Eigen::Vector3d& t,
                       long long colmap_camera_id, std::string name, const SourcePosition& at);
  // `colmap_point_id` is -1 when the keypoint observes no point.
  void AddKeypoint(SceneImage* image, double x, double y, long long colmap_point_id,
                   const SourcePosition& at);
  // `track` holds (IMAGE_ID, POINT2D_IDX) pairs; each must agree with the images' POINT3D_IDs.
  void AddPoint(long long colmap_id, Point3D point,
                const std::vector<std::pair<long long, long long>>& track,
                const SourcePosition& at);
  // Checks that every POINT3D_ID in the images names a point whose track lists it
  // (`images_path` is named in the message) and hands the scene over.
  Scene Finish(const std::string& images_path);

 private:
  std::string extension_;
  Scene scene_;
  std::vector<char> camera_defined_;
};

}  // namespace proj::internal
