#include <charconv>
#include <filesystem>
#include <ostream>
#include <string>

#include "io/atomic_file.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/reconstruction_io/colmap_written_subset.h"

namespace proj {
namespace {

using internal::InRegisteredImage;
using internal::NumRegisteredObservations;

// " " and v as the streams here write it (precision 17, general format: printf's %.17g),
// through std::to_chars: the keypoint and track lines are most of a model's text, and the
// stream's number formatting of them took 0.15 s of fountain-P11's 12 s CPU run.
void AppendNumber(double v, std::string* line) {
  char buffer[40];
  buffer[0] = ' ';
  const auto end = std::to_chars(buffer + 1, buffer + sizeof(buffer), v, std::chars_format::general, 17).ptr;
  line->append(buffer, end);
}
void AppendNumber(long long v, std::string* line) {
  char buffer[24];
  buffer[0] = ' ';
  const auto end = std::to_chars(buffer + 1, buffer + sizeof(buffer), v).ptr;
  line->append(buffer, end);
}

void WriteCameras(const Scene& scene, std::ostream& out) {
  out.precision(17);
  out << "# Camera list with one line of data per camera:\n";
  out << "#   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n";
  out << "# Number of cameras: " << scene.cameras.size() << "\n";
  for (size_t id = 0; id < scene.cameras.size(); ++id) {
    const Camera& camera = scene.cameras[id];
    out << id + 1 << " " << CameraModelName(camera.model) << " " << camera.width << " "
        << camera.height;
    for (const double param : camera.params) out << " " << param;
    out << "\n";
  }
}

void WriteImages(const Scene& scene, std::ostream& out) {
  // Observations in registered images of points that are written (they all are: such a point
  // has at least this observation in a registered image).
  int num_registered = 0;
  long long num_observations = 0;
  for (const auto& image : scene.images) {
    if (!image.registered) continue;
    ++num_registered;
    for (const int id : image.point3d_ids) num_observations += id != kInvalidId ? 1 : 0;
  }
  out.precision(17);
  out << "# Image list with two lines of data per image:\n";
  out << "#   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME\n";
  out << "#   POINTS2D[] as (X, Y, POINT3D_ID)\n";
  out << "# Number of images: " << num_registered << ", mean observations per image: "
      << (num_registered > 0 ? static_cast<double>(num_observations) / num_registered : 0.0)
      << "\n";
  for (size_t id = 0; id < scene.images.size(); ++id) {
    const SceneImage& image = scene.images[id];
    if (!image.registered) continue;
    const Eigen::Quaterniond q = image.cam_from_world.rotation.normalized();
    const Eigen::Vector3d& t = image.cam_from_world.translation;
    out << id + 1 << " " << q.w() << " " << q.x() << " " << q.y() << " " << q.z() << " " << t.x()
        << " " << t.y() << " " << t.z() << " " << image.camera_id + 1 << " " << image.name << "\n";
    std::string line;
    for (size_t k = 0; k < image.keypoints.size(); ++k) {
      const int point_id = k < image.point3d_ids.size() ? image.point3d_ids[k] : kInvalidId;
      AppendNumber(static_cast<double>(image.keypoints[k].x()), &line);
      AppendNumber(static_cast<double>(image.keypoints[k].y()), &line);
      AppendNumber(point_id == kInvalidId ? -1LL : point_id + 1LL, &line);
    }
    line += '\n';
    out.write(line.data() + (line.size() > 1 ? 1 : 0), line.size() - (line.size() > 1 ? 1 : 0));
  }
}

void WritePoints(const Scene& scene, std::ostream& out) {
  int num_points = 0;
  long long num_observations = 0;
  for (const auto& [id, point] : scene.points) {
    const int n = NumRegisteredObservations(scene, point);
    num_points += n > 0 ? 1 : 0;
    num_observations += n;
  }
  out.precision(17);
  out << "# 3D point list with one line of data per point:\n";
  out << "#   POINT3D_ID, X, Y, Z, R, G, B, ERROR, TRACK[] as (IMAGE_ID, POINT2D_IDX)\n";
  out << "# Number of points: " << num_points << ", mean track length: "
      << (num_points > 0 ? static_cast<double>(num_observations) / num_points : 0.0) << "\n";
  for (const auto& [id, point] : scene.points) {
    if (NumRegisteredObservations(scene, point) == 0) continue;
    std::string line = std::to_string(id + 1);
    for (int k = 0; k < 3; ++k) AppendNumber(point.position[k], &line);
    for (int k = 0; k < 3; ++k) AppendNumber(static_cast<long long>(point.color[k]), &line);
    AppendNumber(static_cast<double>(point.mean_error_px), &line);
    for (const auto& element : point.track) {
      if (!InRegisteredImage(scene, element)) continue;
      AppendNumber(element.image_id + 1LL, &line);
      AppendNumber(static_cast<long long>(element.keypoint_index), &line);
    }
    line += '\n';
    out << line;
  }
}

}  // namespace

void WriteColmapText(const Scene& scene, const std::string& dir) {
  namespace fs = std::filesystem;
  EnsureWritableDirectory(dir);
  WriteFileAtomically((fs::path(dir) / "cameras.txt").string(),
                      [&](std::ostream& out) { WriteCameras(scene, out); });
  WriteFileAtomically((fs::path(dir) / "images.txt").string(),
                      [&](std::ostream& out) { WriteImages(scene, out); });
  WriteFileAtomically((fs::path(dir) / "points3D.txt").string(),
                      [&](std::ostream& out) { WritePoints(scene, out); });
}

}  // namespace proj
