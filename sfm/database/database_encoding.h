// How our types are stored in the columns of COLMAP's tables (see scene_database.h for the
// layouts), and the validation of what is read back: a blob whose size does not match its
// rows and columns is an InputError naming the file, the table and the row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "features/feature_types.h"
#include "geometry/camera/camera.h"
#include "matching/matching_types.h"
#include "matching/two_view_geometry.h"

namespace proj::internal {

// The row a value was read from, for the message of a corrupt one.
struct RowOrigin {
  std::string_view path;
  const char* table;
  const char* id_column;  // "image_id", "camera_id" or "pair_id"
  int64_t id;
};
[[noreturn]] void ThrowCorruptRow(const RowOrigin& origin, const std::string& problem);

// A rows x cols matrix blob as COLMAP stores it (rows, cols and data columns).
struct MatrixBlob {
  int64_t rows = 0;
  int64_t cols = 0;
  const void* data = nullptr;
  int64_t num_bytes = 0;
};

// Keypoints: float32 rows x 6 (x, y, a11, a12, a21, a22) written; 2, 4 or 6 columns read.
std::vector<float> KeypointsToBlob(const std::vector<Keypoint>& keypoints);
std::vector<Keypoint> KeypointsFromBlob(const MatrixBlob& blob, const RowOrigin& origin);

// Descriptors: uint8 rows x 128.
std::vector<uint8_t> DescriptorsFromBlob(const MatrixBlob& blob, const RowOrigin& origin);

// Matches: uint32 rows x 2; `swap` exchanges the columns (the pair stored the other way).
// False (and `blob` incomplete) when a match has a negative index.
bool MatchesToBlob(const std::vector<FeatureMatch>& matches, bool swap,
                   std::vector<uint32_t>* blob);
std::vector<FeatureMatch> MatchesFromBlob(const MatrixBlob& blob, bool swap,
                                          const RowOrigin& origin);

// A fixed number of float64 values: false for NULL or an empty blob (COLMAP writes empty
// F, E, H, qvec and tvec for a pair without inliers), else exactly `count` values.
bool DoublesFromBlob(const void* data, int64_t num_bytes, int count, const char* column,
                     const RowOrigin& origin, double* values);

// Our camera from a COLMAP row, by the model table of geometry/camera/colmap_camera_models.h
// (SIMPLE_PINHOLE f, cx, cy becomes PINHOLE f, f, cx, cy). Models we do not have and params
// of the wrong size are InputErrors.
Camera CameraFromColmap(int64_t colmap_model, int64_t width, int64_t height,
                        const void* params, int64_t params_bytes, const RowOrigin& origin);

// COLMAP's TwoViewGeometry::ConfigurationType values.
int ColmapTwoViewConfiguration(TwoViewConfiguration configuration);
TwoViewConfiguration TwoViewConfigurationFromColmap(int64_t config, const RowOrigin& origin);

// The same geometry seen from the second image: matches swapped, F and E transposed, H
// inverted, the pose inverted.
TwoViewGeometry InvertTwoViewGeometry(const TwoViewGeometry& geometry);

}  // namespace proj::internal
