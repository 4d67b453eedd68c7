#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/check.h"
#include "sfm/reconstruction_io/colmap_text.h"

namespace proj {
namespace {

// Line-oriented reader that knows where it is, for error messages "file:line: reason".
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), stream_(path) {
    PROJ_REQUIRE(stream_.is_open(), "cannot open '" << path << "'");
  }
  // Next line that is neither empty nor a comment; false at the end of the file.
  bool NextDataLine(std::string* line) {
    while (NextLine(line)) {
      const size_t first = line->find_first_not_of(" \t\r");
      if (first == std::string::npos || (*line)[first] == '#') continue;
      return true;
    }
    return false;
  }
  // The very next line, whatever it holds (the POINTS2D line of an image may be empty).
  bool NextLine(std::string* line) {
    if (!std::getline(stream_, *line)) return false;
    ++line_number_;
    if (!line->empty() && line->back() == '\r') line->pop_back();
    return true;
  }
  std::string Where() const { return path_ + ":" + std::to_string(line_number_); }

 private:
  std::string path_;
  std::ifstream stream_;
  int line_number_ = 0;
};

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream stream(line);
  std::string token;
  while (stream >> token) tokens.push_back(token);
  return tokens;
}

double ParseDouble(const std::string& token, const LineReader& reader, const char* what) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  PROJ_REQUIRE(end != token.c_str() && *end == '\0' && errno != ERANGE,
               reader.Where() << ": " << what << " '" << token << "' is not a number");
  return value;
}

long long ParseInt(const std::string& token, const LineReader& reader, const char* what) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(token.c_str(), &end, 10);
  PROJ_REQUIRE(end != token.c_str() && *end == '\0' && errno != ERANGE,
               reader.Where() << ": " << what << " '" << token << "' is not an integer");
  return value;
}

// A COLMAP id (>= 1) turned into our 0-based index.
int ParseId(const std::string& token, const LineReader& reader, const char* what) {
  const long long id = ParseInt(token, reader, what);
  PROJ_REQUIRE(id >= 1 && id <= (1 << 30), reader.Where()
                                               << ": " << what << " " << id
                                               << " out of range (COLMAP ids start at 1)");
  return static_cast<int>(id - 1);
}

template <typename T>
void GrowTo(std::vector<T>* v, size_t size, const T& filler) {
  if (v->size() < size) v->resize(size, filler);
}

Camera PlaceholderCamera() {
  Camera camera;
  camera.params.assign(CameraModelNumParams(camera.model), 0.0);
  return camera;
}

// Returns, per camera index, whether cameras.txt defines it (the rest are placeholders).
std::vector<char> ReadCameras(const std::string& path, Scene* scene) {
  LineReader reader(path);
  std::vector<char> seen;
  std::string line;
  while (reader.NextDataLine(&line)) {
    const auto tokens = Split(line);
    PROJ_REQUIRE(tokens.size() >= 4, reader.Where() << ": expected CAMERA_ID MODEL WIDTH HEIGHT "
                                                       "PARAMS[], got '"
                                                    << line << "'");
    const int id = ParseId(tokens[0], reader, "CAMERA_ID");
    Camera camera;
    try {
      camera.model = CameraModelFromName(tokens[1]);
    } catch (const InputError&) {
      PROJ_REQUIRE(false, reader.Where() << ": unsupported camera model '" << tokens[1]
                                         << "' (supported: PINHOLE, SIMPLE_RADIAL, RADIAL)");
    }
    camera.width = static_cast<int>(ParseInt(tokens[2], reader, "WIDTH"));
    camera.height = static_cast<int>(ParseInt(tokens[3], reader, "HEIGHT"));
    PROJ_REQUIRE(camera.width >= 0 && camera.height >= 0, reader.Where()
                                                              << ": negative image size");
    const size_t num_params = CameraModelNumParams(camera.model);
    PROJ_REQUIRE(tokens.size() == 4 + num_params,
                 reader.Where() << ": camera model " << tokens[1] << " takes " << num_params
                                << " parameters, got " << tokens.size() - 4);
    for (size_t i = 0; i < num_params; ++i) {
      camera.params.push_back(ParseDouble(tokens[4 + i], reader, "camera parameter"));
    }
    GrowTo(&scene->cameras, id + 1, PlaceholderCamera());
    GrowTo(&seen, id + 1, char{0});
    PROJ_REQUIRE(!seen[id], reader.Where() << ": duplicate CAMERA_ID " << id + 1);
    seen[id] = 1;
    scene->cameras[id] = camera;
  }
  return seen;
}

void ReadImages(const std::string& path, const std::vector<char>& camera_defined, Scene* scene) {
  LineReader reader(path);
  std::string line;
  while (reader.NextDataLine(&line)) {
    const auto tokens = Split(line);
    PROJ_REQUIRE(tokens.size() >= 10, reader.Where() << ": expected IMAGE_ID QW QX QY QZ TX TY "
                                                        "TZ CAMERA_ID NAME, got '"
                                                     << line << "'");
    const int id = ParseId(tokens[0], reader, "IMAGE_ID");
    GrowTo(&scene->images, id + 1, SceneImage{});
    SceneImage& image = scene->images[id];
    PROJ_REQUIRE(!image.registered, reader.Where() << ": duplicate IMAGE_ID " << id + 1);
    double v[7];
    for (int i = 0; i < 7; ++i) v[i] = ParseDouble(tokens[1 + i], reader, "pose value");
    const Eigen::Quaterniond q(v[0], v[1], v[2], v[3]);
    PROJ_REQUIRE(q.norm() > 1e-12, reader.Where() << ": zero quaternion");
    image.cam_from_world = Rigid3d(q.normalized(), Eigen::Vector3d(v[4], v[5], v[6]));
    image.camera_id = ParseId(tokens[8], reader, "CAMERA_ID");
    PROJ_REQUIRE(
        image.camera_id < static_cast<int>(camera_defined.size()) &&
            camera_defined[image.camera_id],
        reader.Where() << ": CAMERA_ID " << image.camera_id + 1 << " is not in cameras.txt");
    // The name is the rest of the line after CAMERA_ID (it may contain spaces).
    size_t pos = 0;
    for (int field = 0; field < 9; ++field) {
      pos = line.find_first_not_of(" \t", pos);
      pos = line.find_first_of(" \t", pos);
    }
    pos = line.find_first_not_of(" \t", pos);
    image.name = line.substr(pos);
    image.name.erase(image.name.find_last_not_of(" \t") + 1);
    image.registered = true;

    PROJ_REQUIRE(reader.NextLine(&line), reader.Where()
                                             << ": missing POINTS2D line of image " << id + 1);
    const auto points = Split(line);
    PROJ_REQUIRE(points.size() % 3 == 0, reader.Where() << ": POINTS2D must be triples (X, Y, "
                                                           "POINT3D_ID), got "
                                                        << points.size() << " values");
    for (size_t k = 0; k < points.size(); k += 3) {
      image.keypoints.emplace_back(ParseDouble(points[k], reader, "X"),
                                   ParseDouble(points[k + 1], reader, "Y"));
      const long long point_id = ParseInt(points[k + 2], reader, "POINT3D_ID");
      PROJ_REQUIRE(point_id == -1 || (point_id >= 1 && point_id <= (1 << 30)),
                   reader.Where() << ": POINT3D_ID " << point_id << " out of range");
      image.point3d_ids.push_back(point_id == -1 ? kInvalidId : static_cast<int>(point_id - 1));
    }
  }
}

void ReadPoints(const std::string& path, Scene* scene) {
  LineReader reader(path);
  std::string line;
  while (reader.NextDataLine(&line)) {
    const auto tokens = Split(line);
    PROJ_REQUIRE(tokens.size() >= 8 && (tokens.size() - 8) % 2 == 0,
                 reader.Where() << ": expected POINT3D_ID X Y Z R G B ERROR followed by "
                                   "(IMAGE_ID, POINT2D_IDX) pairs");
    const int id = ParseId(tokens[0], reader, "POINT3D_ID");
    PROJ_REQUIRE(scene->points.count(id) == 0, reader.Where()
                                                   << ": duplicate POINT3D_ID " << id + 1);
    Point3D point;
    for (int i = 0; i < 3; ++i)
      point.position[i] = ParseDouble(tokens[1 + i], reader, "coordinate");
    for (int i = 0; i < 3; ++i) {
      const long long c = ParseInt(tokens[4 + i], reader, "colour");
      PROJ_REQUIRE(c >= 0 && c <= 255, reader.Where() << ": colour " << c << " not in [0, 255]");
      point.color[i] = static_cast<uint8_t>(c);
    }
    point.mean_error_px = ParseDouble(tokens[7], reader, "ERROR");
    for (size_t k = 8; k < tokens.size(); k += 2) {
      TrackElement element;
      element.image_id = ParseId(tokens[k], reader, "IMAGE_ID");
      const long long index = ParseInt(tokens[k + 1], reader, "POINT2D_IDX");
      PROJ_REQUIRE(
          element.image_id < static_cast<int>(scene->images.size()) &&
              scene->images[element.image_id].registered,
          reader.Where() << ": IMAGE_ID " << element.image_id + 1 << " is not in images.txt");
      const SceneImage& image = scene->images[element.image_id];
      PROJ_REQUIRE(index >= 0 && index < static_cast<long long>(image.keypoints.size()),
                   reader.Where() << ": POINT2D_IDX " << index << " out of range for image "
                                  << element.image_id + 1);
      element.keypoint_index = static_cast<int>(index);
      PROJ_REQUIRE(image.point3d_ids[index] == id,
                   reader.Where() << ": track element (" << element.image_id + 1 << ", " << index
                                  << ") disagrees with images.txt, which gives POINT3D_ID "
                                  << (image.point3d_ids[index] == kInvalidId
                                          ? -1
                                          : image.point3d_ids[index] + 1));
      point.track.push_back(element);
    }
    scene->points.emplace(id, std::move(point));
    scene->next_point_id = std::max(scene->next_point_id, id + 1);
  }
}

// Every POINT3D_ID in images.txt must name a point whose track lists that observation.
void CheckObservationsHavePoints(const std::string& images_path, const Scene& scene) {
  for (size_t image_id = 0; image_id < scene.images.size(); ++image_id) {
    const SceneImage& image = scene.images[image_id];
    for (size_t k = 0; k < image.point3d_ids.size(); ++k) {
      const int point_id = image.point3d_ids[k];
      if (point_id == kInvalidId) continue;
      const auto it = scene.points.find(point_id);
      bool listed = false;
      if (it != scene.points.end()) {
        for (const auto& e : it->second.track) {
          listed |=
              e.image_id == static_cast<int>(image_id) && e.keypoint_index == static_cast<int>(k);
        }
      }
      PROJ_REQUIRE(listed, images_path << ": image " << image_id + 1 << " keypoint " << k
                                       << " observes POINT3D_ID " << point_id + 1
                                       << ", whose track in points3D.txt does not list it");
    }
  }
}

}  // namespace

Scene ReadColmapText(const std::string& dir) {
  namespace fs = std::filesystem;
  Scene scene;
  const std::string images_path = (fs::path(dir) / "images.txt").string();
  const std::vector<char> camera_defined =
      ReadCameras((fs::path(dir) / "cameras.txt").string(), &scene);
  ReadImages(images_path, camera_defined, &scene);
  ReadPoints((fs::path(dir) / "points3D.txt").string(), &scene);
  CheckObservationsHavePoints(images_path, scene);
  return scene;
}

}  // namespace proj
