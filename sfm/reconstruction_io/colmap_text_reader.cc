#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/check.h"
#include "geometry/camera/colmap_camera_models.h"
#include "sfm/reconstruction_io/colmap_model_builder.h"
#include "sfm/reconstruction_io/colmap_text.h"

namespace proj {
namespace {

using internal::ColmapModelBuilder;

// Line-oriented reader that knows where it is, for error messages "file:line: reason".
class LineReader : public internal::SourcePosition {
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
  std::string Where() const override { return path_ + ":" + std::to_string(line_number_); }

 private:
  std::string path_;
  std::ifstream stream_;
  int line_number_ = 0;
};

// What `stream >> token` skips in the C locale (isspace).
constexpr const char* kFieldSeparators = " \t\n\v\f\r";

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

void ReadCameras(const std::string& path, ColmapModelBuilder* builder) {
  LineReader reader(path);
  std::string line;
  while (reader.NextDataLine(&line)) {
    const auto tokens = Split(line);
    PROJ_REQUIRE(tokens.size() >= 4, reader.Where() << ": expected CAMERA_ID MODEL WIDTH HEIGHT "
                                                       "PARAMS[], got '"
                                                    << line << "'");
    const long long id = ParseInt(tokens[0], reader, "CAMERA_ID");
    const ColmapCameraModel* model = FindColmapCameraModel(tokens[1]);
    PROJ_REQUIRE(model != nullptr && model->ours,
                 reader.Where() << ": unsupported camera model '" << tokens[1]
                                << "' (supported: " << SupportedColmapCameraModels() << ")");
    Camera camera;
    camera.model = *model->ours;
    camera.width = static_cast<int>(ParseInt(tokens[2], reader, "WIDTH"));
    camera.height = static_cast<int>(ParseInt(tokens[3], reader, "HEIGHT"));
    const size_t num_params = model->num_params;
    PROJ_REQUIRE(tokens.size() == 4 + num_params,
                 reader.Where() << ": camera model " << tokens[1] << " takes " << num_params
                                << " parameters, got " << tokens.size() - 4);
    std::vector<double> colmap_params;
    for (size_t i = 0; i < num_params; ++i) {
      colmap_params.push_back(ParseDouble(tokens[4 + i], reader, "camera parameter"));
    }
    camera.params = ParamsFromColmap(*model, colmap_params.data());
    builder->AddCamera(id, camera, reader);
  }
}

void ReadImages(const std::string& path, ColmapModelBuilder* builder) {
  LineReader reader(path);
  std::string line;
  while (reader.NextDataLine(&line)) {
    const auto tokens = Split(line);
    PROJ_REQUIRE(tokens.size() >= 10, reader.Where() << ": expected IMAGE_ID QW QX QY QZ TX TY "
                                                        "TZ CAMERA_ID NAME, got '"
                                                     << line << "'");
    const long long id = ParseInt(tokens[0], reader, "IMAGE_ID");
    double v[7];
    for (int i = 0; i < 7; ++i) v[i] = ParseDouble(tokens[1 + i], reader, "pose value");
    const long long camera_id = ParseInt(tokens[8], reader, "CAMERA_ID");
    // The name is the rest of the line after CAMERA_ID (it may contain spaces). Fields are
    // skipped with Split's separators (any isspace character): with only " \t" here, a
    // vertical tab between two fields ran past the end of the line (found by fuzzing).
    size_t pos = 0;
    for (int field = 0; field < 9; ++field) {
      pos = line.find_first_not_of(kFieldSeparators, pos);
      pos = line.find_first_of(kFieldSeparators, pos);
    }
    pos = line.find_first_not_of(kFieldSeparators, pos);
    std::string name = line.substr(pos);
    name.erase(name.find_last_not_of(kFieldSeparators) + 1);
    SceneImage* image =
        builder->AddImage(id, Eigen::Quaterniond(v[0], v[1], v[2], v[3]),
                          Eigen::Vector3d(v[4], v[5], v[6]), camera_id, std::move(name), reader);

    PROJ_REQUIRE(reader.NextLine(&line), reader.Where()
                                             << ": missing POINTS2D line of image " << id);
    const auto points = Split(line);
    PROJ_REQUIRE(points.size() % 3 == 0, reader.Where() << ": POINTS2D must be triples (X, Y, "
                                                           "POINT3D_ID), got "
                                                        << points.size() << " values");
    for (size_t k = 0; k < points.size(); k += 3) {
      builder->AddKeypoint(image, ParseDouble(points[k], reader, "X"),
                           ParseDouble(points[k + 1], reader, "Y"),
                           ParseInt(points[k + 2], reader, "POINT3D_ID"), reader);
    }
  }
}

void ReadPoints(const std::string& path, ColmapModelBuilder* builder) {
  LineReader reader(path);
  std::string line;
  std::vector<std::pair<long long, long long>> track;
  while (reader.NextDataLine(&line)) {
    const auto tokens = Split(line);
    PROJ_REQUIRE(tokens.size() >= 8 && (tokens.size() - 8) % 2 == 0,
                 reader.Where() << ": expected POINT3D_ID X Y Z R G B ERROR followed by "
                                   "(IMAGE_ID, POINT2D_IDX) pairs");
    const long long id = ParseInt(tokens[0], reader, "POINT3D_ID");
    Point3D point;
    for (int i = 0; i < 3; ++i)
      point.position[i] = ParseDouble(tokens[1 + i], reader, "coordinate");
    for (int i = 0; i < 3; ++i) {
      const long long c = ParseInt(tokens[4 + i], reader, "colour");
      PROJ_REQUIRE(c >= 0 && c <= 255, reader.Where() << ": colour " << c << " not in [0, 255]");
      point.color[i] = static_cast<uint8_t>(c);
    }
    point.mean_error_px = ParseDouble(tokens[7], reader, "ERROR");
    track.clear();
    for (size_t k = 8; k < tokens.size(); k += 2) {
      track.emplace_back(ParseInt(tokens[k], reader, "IMAGE_ID"),
                         ParseInt(tokens[k + 1], reader, "POINT2D_IDX"));
    }
    builder->AddPoint(id, std::move(point), track, reader);
  }
}

}  // namespace

Scene ReadColmapText(const std::string& dir) {
  namespace fs = std::filesystem;
  ColmapModelBuilder builder(".txt");
  const std::string images_path = (fs::path(dir) / "images.txt").string();
  ReadCameras((fs::path(dir) / "cameras.txt").string(), &builder);
  ReadImages(images_path, &builder);
  ReadPoints((fs::path(dir) / "points3D.txt").string(), &builder);
  return builder.Finish(images_path);
}

}  // namespace proj
