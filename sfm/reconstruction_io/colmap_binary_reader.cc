#include <algorithm>
#include <filesystem>
#include <limits>
#include <utility>
#include <vector>

#include "core/check.h"
#include "geometry/camera/colmap_camera_models.h"
#include "io/file_bytes.h"
#include "io/little_endian.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_model_builder.h"

namespace proj {
namespace {

using internal::ColmapModelBuilder;

// Smallest record sizes, in bytes: a count that more records than the rest of the file can
// hold is refused before anything is allocated for it.
constexpr size_t kMinCameraBytes = 4 + 4 + 8 + 8;
constexpr size_t kMinImageBytes = 4 + 7 * 8 + 4 + 1 + 8;
constexpr size_t kKeypointBytes = 8 + 8 + 8;
constexpr size_t kMinPointBytes = 8 + 3 * 8 + 3 + 8 + 8;
constexpr size_t kTrackElementBytes = 4 + 4;

// Sequential reader over a whole file that knows its byte offset, for error messages
// "file at byte N: reason".
class ByteReader : public internal::SourcePosition {
 public:
  explicit ByteReader(std::string path) : path_(std::move(path)), bytes_(ReadFileBytes(path_)) {}

  template <typename T>
  T Read(const char* what) {
    PROJ_REQUIRE(remaining() >= sizeof(T),
                 Where() << ": file ends inside " << what << " (truncated file)");
    const T value = DecodeLittleEndian<T>(&bytes_[position_]);
    position_ += sizeof(T);
    return value;
  }
  // A u64 count of records of at least `min_record_bytes` each.
  size_t ReadCount(size_t min_record_bytes, const char* what) {
    const uint64_t count = Read<uint64_t>(what);
    PROJ_REQUIRE(count <= remaining() / min_record_bytes,
                 Where() << ": " << what << " " << count << " needs at least "
                         << min_record_bytes << " bytes each, but only " << remaining()
                         << " bytes are left (corrupt or truncated file)");
    return static_cast<size_t>(count);
  }
  // A '\0'-terminated string.
  std::string ReadName(const char* what) {
    const auto begin = bytes_.begin() + position_;
    const auto end = std::find(begin, bytes_.end(), uint8_t{0});
    PROJ_REQUIRE(end != bytes_.end(),
                 Where() << ": " << what << " has no terminating zero byte (truncated file)");
    std::string name(begin, end);
    position_ += name.size() + 1;
    return name;
  }
  void ExpectEnd() const {
    PROJ_REQUIRE(remaining() == 0, Where() << ": " << remaining()
                                           << " bytes after the last record (corrupt file)");
  }
  std::string Where() const override {
    return "'" + path_ + "' at byte " + std::to_string(position_);
  }

 private:
  size_t remaining() const { return bytes_.size() - position_; }

  std::string path_;
  std::vector<uint8_t> bytes_;
  size_t position_ = 0;
};

// COLMAP writes ids as unsigned integers; out-of-range values must reach the builder's range
// check as out-of-range, not wrap around to small or negative ones.
long long AsId(uint64_t value) {
  return value > static_cast<uint64_t>(std::numeric_limits<long long>::max())
             ? std::numeric_limits<long long>::max()
             : static_cast<long long>(value);
}

int ReadImageSize(ByteReader* reader, const char* what) {
  const uint64_t size = reader->Read<uint64_t>(what);
  PROJ_REQUIRE(size <= static_cast<uint64_t>(std::numeric_limits<int>::max()),
               reader->Where() << ": " << what << " " << size << " is not a plausible image size");
  return static_cast<int>(size);
}

void ReadCameras(const std::string& path, ColmapModelBuilder* builder) {
  ByteReader reader(path);
  const size_t count = reader.ReadCount(kMinCameraBytes, "camera count");
  for (size_t i = 0; i < count; ++i) {
    const long long id = reader.Read<uint32_t>("CAMERA_ID");
    const int colmap_model = reader.Read<int32_t>("MODEL_ID");
    const ColmapCameraModel* model = FindColmapCameraModel(colmap_model);
    PROJ_REQUIRE(model != nullptr && model->ours,
                 reader.Where() << ": unsupported camera model id " << colmap_model
                                << (model != nullptr ? std::string(" (") + model->name + ")"
                                                     : std::string())
                                << " (supported: " << SupportedColmapCameraModels() << ")");
    Camera camera;
    camera.model = *model->ours;
    camera.width = ReadImageSize(&reader, "WIDTH");
    camera.height = ReadImageSize(&reader, "HEIGHT");
    std::vector<double> colmap_params(model->num_params);
    for (double& param : colmap_params) param = reader.Read<double>("camera parameter");
    camera.params = ParamsFromColmap(*model, colmap_params.data());
    builder->AddCamera(id, camera, reader);
  }
  reader.ExpectEnd();
}

void ReadImages(const std::string& path, ColmapModelBuilder* builder) {
  ByteReader reader(path);
  const size_t count = reader.ReadCount(kMinImageBytes, "image count");
  for (size_t i = 0; i < count; ++i) {
    const long long id = reader.Read<uint32_t>("IMAGE_ID");
    double v[7];
    for (double& value : v) value = reader.Read<double>("pose value");
    const long long camera_id = reader.Read<uint32_t>("CAMERA_ID");
    std::string name = reader.ReadName("image name");
    SceneImage* image =
        builder->AddImage(id, Eigen::Quaterniond(v[0], v[1], v[2], v[3]),
                          Eigen::Vector3d(v[4], v[5], v[6]), camera_id, std::move(name), reader);
    const size_t num_points = reader.ReadCount(kKeypointBytes, "POINTS2D count");
    image->keypoints.reserve(num_points);
    image->point3d_ids.reserve(num_points);
    for (size_t k = 0; k < num_points; ++k) {
      const double x = reader.Read<double>("X");
      const double y = reader.Read<double>("Y");
      const uint64_t point_id = reader.Read<uint64_t>("POINT3D_ID");
      builder->AddKeypoint(image, x, y,
                           point_id == std::numeric_limits<uint64_t>::max() ? -1 : AsId(point_id),
                           reader);
    }
  }
  reader.ExpectEnd();
}

void ReadPoints(const std::string& path, ColmapModelBuilder* builder) {
  ByteReader reader(path);
  const size_t count = reader.ReadCount(kMinPointBytes, "point count");
  std::vector<std::pair<long long, long long>> track;
  for (size_t i = 0; i < count; ++i) {
    const long long id = AsId(reader.Read<uint64_t>("POINT3D_ID"));
    Point3D point;
    for (int k = 0; k < 3; ++k) point.position[k] = reader.Read<double>("coordinate");
    for (int k = 0; k < 3; ++k) point.color[k] = reader.Read<uint8_t>("colour");
    point.mean_error_px = reader.Read<double>("ERROR");
    const size_t length = reader.ReadCount(kTrackElementBytes, "track length");
    track.clear();
    for (size_t k = 0; k < length; ++k) {
      const long long image_id = reader.Read<uint32_t>("IMAGE_ID");
      track.emplace_back(image_id, reader.Read<uint32_t>("POINT2D_IDX"));
    }
    builder->AddPoint(id, std::move(point), track, reader);
  }
  reader.ExpectEnd();
}

}  // namespace

Scene ReadColmapBinary(const std::string& dir) {
  namespace fs = std::filesystem;
  ColmapModelBuilder builder(".bin");
  const std::string images_path = (fs::path(dir) / "images.bin").string();
  ReadCameras((fs::path(dir) / "cameras.bin").string(), &builder);
  ReadImages(images_path, &builder);
  ReadPoints((fs::path(dir) / "points3D.bin").string(), &builder);
  return builder.Finish(images_path);
}

}  // namespace proj
