#include "sfm/database/database_encoding.h"

#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>

#include <Eigen/LU>

#include "core/check.h"
#include "geometry/camera/colmap_camera_models.h"
#include "sfm/database/scene_database.h"
#include "sfm/database/sqlite_statement.h"

namespace proj::internal {
namespace {

constexpr int kKeypointBlobCols = 6;
constexpr double kTwoPi = 6.283185307179586;

// Checks that a blob holds rows x cols elements of `element_size` bytes. Only divisions: the
// counts come from the file, and cols * element_size alone can overflow (rows 0 and cols 2^62
// did, found by reading the code behind the scene database fuzz target).
void CheckMatrixBlob(const MatrixBlob& blob, size_t element_size, const char* element_type,
                     const RowOrigin& origin) {
  const bool counts_valid = blob.rows >= 0 && blob.cols >= 0;
  const int64_t num_elements = blob.num_bytes / static_cast<int64_t>(element_size);
  const bool size_matches =
      counts_valid && (blob.rows == 0 || blob.cols == 0
                           ? blob.num_bytes == 0
                           : blob.num_bytes % static_cast<int64_t>(element_size) == 0 &&
                                 num_elements % blob.cols == 0 && num_elements / blob.cols == blob.rows);
  if (!size_matches) {
    ThrowCorruptRow(origin, "its blob holds " + std::to_string(blob.num_bytes) + " bytes for " +
                                std::to_string(blob.rows) + " x " + std::to_string(blob.cols) +
                                " " + element_type + " values");
  }
}

template <typename T>
std::vector<T> CopyBlob(const MatrixBlob& blob) {
  std::vector<T> values(static_cast<size_t>(blob.num_bytes) / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), blob.data, values.size() * sizeof(T));
  return values;
}

float WrapOrientation(double radians) {
  double wrapped = std::fmod(radians, kTwoPi);
  if (wrapped < 0) wrapped += kTwoPi;
  const float value = static_cast<float>(wrapped);
  // A tiny negative angle plus 2 pi rounds to 2 pi in float, outside [0, 2 pi).
  return value >= static_cast<float>(kTwoPi) ? 0.0f : value;
}

}  // namespace

void ThrowCorruptRow(const RowOrigin& origin, const std::string& problem) {
  std::string row = std::string(origin.id_column) + " " + std::to_string(origin.id);
  if (std::string_view(origin.id_column) == "pair_id" && origin.id >= 0) {
    const auto [image_id1, image_id2] = ImageIdsFromPairId(origin.id);
    row += ": images " + std::to_string(image_id1) + " and " + std::to_string(image_id2);
  }
  throw InputError(DatabaseSubject(std::string(origin.path)) + " has a corrupt row in table " +
                   origin.table + " (" + row + "): " + problem + "; " + kUnusableDatabaseAdvice);
}

std::vector<float> KeypointsToBlob(const std::vector<Keypoint>& keypoints) {
  // The affine shape of COLMAP's FeatureKeypoint(x, y, scale, orientation).
  std::vector<float> blob;
  blob.reserve(keypoints.size() * kKeypointBlobCols);
  for (const Keypoint& keypoint : keypoints) {
    const double scale_cos = keypoint.scale * std::cos(static_cast<double>(keypoint.orientation));
    const double scale_sin = keypoint.scale * std::sin(static_cast<double>(keypoint.orientation));
    blob.insert(blob.end(), {keypoint.x, keypoint.y, static_cast<float>(scale_cos),
                             static_cast<float>(-scale_sin), static_cast<float>(scale_sin),
                             static_cast<float>(scale_cos)});
  }
  return blob;
}

std::vector<Keypoint> KeypointsFromBlob(const MatrixBlob& blob, const RowOrigin& origin) {
  if (blob.rows > 0 && blob.cols != 2 && blob.cols != 4 && blob.cols != 6) {
    ThrowCorruptRow(origin, "keypoints have " + std::to_string(blob.cols) +
                                " columns, not 2, 4 or 6");
  }
  CheckMatrixBlob(blob, sizeof(float), "float32", origin);
  const std::vector<float> values = CopyBlob<float>(blob);
  std::vector<Keypoint> keypoints(static_cast<size_t>(blob.rows));
  for (size_t i = 0; i < keypoints.size(); ++i) {
    const float* row = &values[i * blob.cols];
    Keypoint& keypoint = keypoints[i];
    keypoint.x = row[0];
    keypoint.y = row[1];
    if (blob.cols == 2) {
      // COLMAP reads a bare position as the unit shape: scale 1, orientation 0.
      keypoint.scale = 1.0f;
    } else if (blob.cols == 4) {
      keypoint.scale = row[2];
      keypoint.orientation = WrapOrientation(row[3]);
    } else {
      keypoint.scale = static_cast<float>(std::hypot(double{row[2]}, double{row[4]}));
      keypoint.orientation = WrapOrientation(std::atan2(double{row[4]}, double{row[2]}));
    }
  }
  return keypoints;
}

std::vector<uint8_t> DescriptorsFromBlob(const MatrixBlob& blob, const RowOrigin& origin) {
  if (blob.rows > 0 && blob.cols != kSiftDescriptorSize) {
    ThrowCorruptRow(origin, "descriptors have " + std::to_string(blob.cols) + " columns, not " +
                                std::to_string(kSiftDescriptorSize));
  }
  CheckMatrixBlob(blob, sizeof(uint8_t), "uint8", origin);
  return CopyBlob<uint8_t>(blob);
}

bool MatchesToBlob(const std::vector<FeatureMatch>& matches, bool swap,
                   std::vector<uint32_t>* blob) {
  blob->resize(matches.size() * 2);
  for (size_t i = 0; i < matches.size(); ++i) {
    const FeatureMatch& match = matches[i];
    if (match.index1 < 0 || match.index2 < 0) return false;
    (*blob)[2 * i] = static_cast<uint32_t>(swap ? match.index2 : match.index1);
    (*blob)[2 * i + 1] = static_cast<uint32_t>(swap ? match.index1 : match.index2);
  }
  return true;
}

std::vector<FeatureMatch> MatchesFromBlob(const MatrixBlob& blob, bool swap,
                                          const RowOrigin& origin) {
  if (blob.rows > 0 && blob.cols != 2) {
    ThrowCorruptRow(origin, "matches have " + std::to_string(blob.cols) + " columns, not 2");
  }
  CheckMatrixBlob(blob, sizeof(uint32_t), "uint32", origin);
  const std::vector<uint32_t> values = CopyBlob<uint32_t>(blob);
  std::vector<FeatureMatch> matches(static_cast<size_t>(blob.rows));
  constexpr uint32_t kMaxIndex = static_cast<uint32_t>(std::numeric_limits<int>::max());
  for (size_t i = 0; i < matches.size(); ++i) {
    const uint32_t first = values[2 * i];
    const uint32_t second = values[2 * i + 1];
    // Indices beyond int are no keypoint of any image (COLMAP's invalid index is 2^32 - 1).
    if (first > kMaxIndex || second > kMaxIndex) {
      ThrowCorruptRow(origin, "match " + std::to_string(i) + " has keypoint index " +
                                  std::to_string(std::max(first, second)));
    }
    matches[i].index1 = static_cast<int>(swap ? second : first);
    matches[i].index2 = static_cast<int>(swap ? first : second);
  }
  return matches;
}

bool DoublesFromBlob(const void* data, int64_t num_bytes, int count, const char* column,
                     const RowOrigin& origin, double* values) {
  if (data == nullptr || num_bytes == 0) return false;
  const int64_t expected = count * static_cast<int64_t>(sizeof(double));
  if (num_bytes != expected) {
    ThrowCorruptRow(origin, std::string("column ") + column + " holds " +
                                std::to_string(num_bytes) + " bytes, not " +
                                std::to_string(expected) + " (" + std::to_string(count) +
                                " float64 values)");
  }
  std::memcpy(values, data, static_cast<size_t>(expected));
  return true;
}

Camera CameraFromColmap(int64_t colmap_model, int64_t width, int64_t height,
                        const void* params, int64_t params_bytes, const RowOrigin& origin) {
  Camera camera;
  camera.width = static_cast<int>(width);
  camera.height = static_cast<int>(height);
  if (width <= 0 || height <= 0 || width > std::numeric_limits<int>::max() ||
      height > std::numeric_limits<int>::max()) {
    ThrowCorruptRow(origin, "the image size is " + std::to_string(width) + " x " +
                                std::to_string(height));
  }
  const bool fits_int = colmap_model >= std::numeric_limits<int>::min() &&
                        colmap_model <= std::numeric_limits<int>::max();
  const ColmapCameraModel* model =
      fits_int ? FindColmapCameraModel(static_cast<int>(colmap_model)) : nullptr;
  if (model == nullptr || !model->ours) {
    throw InputError(
        "camera " + std::to_string(origin.id) + " of " +
        DatabaseSubject(std::string(origin.path)) + " uses COLMAP camera model " +
        (model != nullptr ? std::string(model->name) : "id " + std::to_string(colmap_model)) +
        ", which this program does not support (only " + SupportedColmapCameraModels() +
        "); use one of those in COLMAP");
  }
  camera.model = *model->ours;
  std::vector<double> values(model->num_params);
  if (!DoublesFromBlob(params, params_bytes, model->num_params, "params", origin, values.data())) {
    ThrowCorruptRow(origin, "the camera has no parameters");
  }
  camera.params = ParamsFromColmap(*model, values.data());
  return camera;
}

int ColmapTwoViewConfiguration(TwoViewConfiguration configuration) {
  switch (configuration) {
    case TwoViewConfiguration::kDegenerate: return 1;
    case TwoViewConfiguration::kCalibrated: return 2;
    case TwoViewConfiguration::kUncalibrated: return 3;
    case TwoViewConfiguration::kPlanar: return 4;
    case TwoViewConfiguration::kPanoramic: return 5;
  }
  PROJ_CHECK(false, "unknown two-view configuration " << static_cast<int>(configuration));
  return -1;
}

TwoViewConfiguration TwoViewConfigurationFromColmap(int64_t config, const RowOrigin& origin) {
  switch (config) {
    case 0:  // UNDEFINED: COLMAP could not say, so nothing to map from.
    case 1: return TwoViewConfiguration::kDegenerate;
    case 2: return TwoViewConfiguration::kCalibrated;
    case 3: return TwoViewConfiguration::kUncalibrated;
    case 4: return TwoViewConfiguration::kPlanar;
    case 5: return TwoViewConfiguration::kPanoramic;
    // PLANAR_OR_PANORAMIC: a homography explains the pair; planar keeps it usable.
    case 6: return TwoViewConfiguration::kPlanar;
    // WATERMARK and MULTIPLE: the inliers are valid for F but not a single rigid motion of
    // a calibrated pair, which is what uncalibrated means to the mapper.
    case 7:
    case 8: return TwoViewConfiguration::kUncalibrated;
    default:
      ThrowCorruptRow(origin, "config " + std::to_string(config) +
                                  " is no COLMAP two-view configuration");
  }
}

TwoViewGeometry InvertTwoViewGeometry(const TwoViewGeometry& geometry) {
  TwoViewGeometry inverted = geometry;
  for (FeatureMatch& match : inverted.inlier_matches) std::swap(match.index1, match.index2);
  inverted.F = geometry.F.transpose();
  inverted.E = geometry.E.transpose();
  // A zero (absent) or singular homography stays zero rather than becoming inf/NaN.
  const Eigen::FullPivLU<Eigen::Matrix3d> lu(geometry.H);
  inverted.H = lu.isInvertible() ? Eigen::Matrix3d(lu.inverse()) : Eigen::Matrix3d::Zero();
  inverted.cam2_from_cam1 = geometry.cam2_from_cam1.Inverse();
  return inverted;
}

}  // namespace proj::internal
