#include "sfm/export/nerfstudio_transforms.h"

#include <filesystem>
#include <ostream>
#include <vector>

#include <Eigen/Core>

#include "core/check.h"
#include "geometry/rigid3.h"
#include "io/atomic_file.h"
#include "io/image.h"
#include "io/json_string.h"
#include "io/ply.h"
#include "sfm/reconstruction_io/colmap_written_subset.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

// applied_transform (nerfstudio_transforms.h).
Eigen::Matrix<double, 3, 4> NerfstudioAppliedTransform() {
  Eigen::Matrix<double, 3, 4> applied;
  applied << 1, 0, 0, 0,  //
      0, 0, 1, 0,         //
      0, -1, 0, 0;
  return applied;
}

// A frame's transform_matrix for an image posed at `cam_from_world` in the model's frame.
Eigen::Matrix4d NerfstudioTransformMatrix(const Rigid3d& cam_from_world) {
  Eigen::Matrix4d world_from_cam = Eigen::Matrix4d::Identity();
  world_from_cam.topRows<3>() = cam_from_world.Inverse().ToMatrix();
  // OpenCV camera axes (y down, z forward) -> OpenGL's (y up, z back).
  world_from_cam.col(1) *= -1;
  world_from_cam.col(2) *= -1;
  Eigen::Matrix4d applied = Eigen::Matrix4d::Identity();
  applied.topRows<3>() = NerfstudioAppliedTransform();
  return applied * world_from_cam;
}

template <typename Matrix>
void WriteJsonMatrix(std::ostream& out, const Matrix& m, const char* indent) {
  out << "[\n";
  for (int r = 0; r < m.rows(); ++r) {
    out << indent << "    [";
    for (int c = 0; c < m.cols(); ++c) out << (c ? ", " : "") << JsonNumber(m(r, c));
    out << "]" << (r + 1 < m.rows() ? "," : "") << "\n";
  }
  out << indent << "]";
}

// nerfstudio's intrinsics keys for a PINHOLE camera (parse_colmap_camera_params), each line
// prefixed by `indent` and ended by ",\n".
void WriteIntrinsics(std::ostream& out, const Camera& camera, const char* indent) {
  const auto& p = camera.params;
  out << indent << "\"w\": " << camera.width << ",\n"
      << indent << "\"h\": " << camera.height << ",\n"
      << indent << "\"fl_x\": " << JsonNumber(p[0]) << ",\n"
      << indent << "\"fl_y\": " << JsonNumber(p[1]) << ",\n"
      << indent << "\"cx\": " << JsonNumber(p[2]) << ",\n"
      << indent << "\"cy\": " << JsonNumber(p[3]) << ",\n"
      << indent << "\"k1\": 0.0,\n"
      << indent << "\"k2\": 0.0,\n"
      << indent << "\"p1\": 0.0,\n"
      << indent << "\"p2\": 0.0,\n"
      << indent << "\"camera_model\": \"OPENCV\",\n";
}

// The registered images, by id; InputError unless their cameras are PINHOLE.
std::vector<int> FrameImageIds(const Scene& scene) {
  std::vector<int> ids;
  for (size_t id = 0; id < scene.images.size(); ++id) {
    if (!scene.images[id].registered) continue;
    const SceneImage& image = scene.images[id];
    PROJ_REQUIRE(scene.cameras[image.camera_id].model == CameraModelId::kPinhole,
                 "nerfstudio export: image '" << image.name << "' has a "
                                              << CameraModelName(scene.cameras[image.camera_id].model)
                                              << " camera; undistort the model first");
    ids.push_back(static_cast<int>(id));
  }
  return ids;
}

bool ShareOneCamera(const Scene& scene, const std::vector<int>& image_ids) {
  for (const int id : image_ids) {
    if (scene.images[id].camera_id != scene.images[image_ids.front()].camera_id) return false;
  }
  return !image_ids.empty();
}

void WriteTransformsJson(std::ostream& out, const Scene& scene, const std::vector<int>& image_ids) {
  const bool shared = ShareOneCamera(scene, image_ids);
  out << "{\n";
  if (shared) WriteIntrinsics(out, scene.cameras[scene.images[image_ids.front()].camera_id], "    ");
  out << "    \"frames\": [";
  for (size_t k = 0; k < image_ids.size(); ++k) {
    const SceneImage& image = scene.images[image_ids[k]];
    out << (k ? "," : "") << "\n        {\n";
    if (!shared) WriteIntrinsics(out, scene.cameras[image.camera_id], "            ");
    out << "            \"file_path\": " << JsonString("images/" + image.name) << ",\n";
    out << "            \"transform_matrix\": ";
    WriteJsonMatrix(out, NerfstudioTransformMatrix(image.cam_from_world), "            ");
    out << ",\n            \"colmap_im_id\": " << image_ids[k] + 1 << "\n        }";
  }
  out << "\n    ],\n    \"applied_transform\": ";
  WriteJsonMatrix(out, NerfstudioAppliedTransform(), "    ");
  out << ",\n    \"ply_file_path\": " << JsonString(kNerfstudioPointsFileName) << "\n}\n";
}

void WritePoints(const Scene& scene, const std::string& path) {
  const Eigen::Matrix<double, 3, 4> applied = NerfstudioAppliedTransform();
  std::vector<Eigen::Vector3f> positions;
  std::vector<Rgb8> colors;
  for (const auto& [id, point] : scene.points) {
    if (internal::NumRegisteredObservations(scene, point) == 0) continue;
    positions.push_back((applied.leftCols<3>() * point.position + applied.col(3)).cast<float>());
    colors.push_back({point.color[0], point.color[1], point.color[2]});
  }
  WritePointCloudPly(path, positions, colors);
}

}  // namespace

void WriteNerfstudioDataset(const Scene& scene, const std::string& dir) {
  const std::vector<int> image_ids = FrameImageIds(scene);
  WriteFileAtomically((fs::path(dir) / kNerfstudioTransformsFileName).string(),
                      [&](std::ostream& out) { WriteTransformsJson(out, scene, image_ids); });
  WritePoints(scene, (fs::path(dir) / kNerfstudioPointsFileName).string());
}

}  // namespace proj
