// GPS positions of the images as pose priors in the scene database: written at extraction
// from the files' EXIF (WGS84, COLMAP 3.10's pose_priors layout), then reviewed over the whole
// folder, which fixes the local ENU frame (stored in proj_enu_frame) and drops the priors of
// images whose position jumps away from the flight path. Pair selection and bundle adjustment
// read the priors as ENU positions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "io/exif.h"
#include "sfm/database/scene_database.h"

namespace proj {

struct GpsPriorOptions {
  // Standard deviation of a horizontal fix when the file states no GPSHPositioningError:
  // GPSDOP x dop_error_m when it states a DOP, else default_horizontal_std_m (consumer GNSS).
  double default_horizontal_std_m = 3.0;
  double dop_error_m = 2.0;
  double vertical_std_factor = 2.0;       // vertical std = factor x horizontal std
  double missing_altitude_std_m = 1000;   // a fix without altitude: altitude 0, this std
  // An image whose 3D position is more than max(jump_min_m, jump_factor x the median step
  // between consecutive images) from both neighbours in name order, while those neighbours are
  // within that of each other, is an outlier (a position jump); so is one whose altitude differs
  // by more than altitude_outlier_m from both neighbours that agree with each other. Outliers
  // lose their prior.
  double jump_factor = 4.0;
  double jump_min_m = 20.0;
  double altitude_outlier_m = 30.0;
  void Check() const;
};

// The WGS84 prior of a fix: position (latitude, longitude, altitude), covariance diagonal in
// square metres along east, north, up.
PosePrior PosePriorFromGps(const GpsPriorOptions& options, const GpsPosition& gps);

// Writes the prior of `gps` for `image_id`, or deletes a stored one when there is no fix.
void WriteGpsPrior(const GpsPriorOptions& options, const std::optional<GpsPosition>& gps,
                   int image_id, SceneDatabase* database);

// Outliers of a sequence of positions (ENU, metres) in name order, as described above.
std::vector<bool> FindGpsOutliers(const GpsPriorOptions& options,
                                  const std::vector<Eigen::Vector3d>& positions_m);

struct GpsReview {
  int num_images = 0;
  int num_with_gps = 0;  // after outliers were dropped
  std::vector<std::string> without_gps;  // names, among a folder where others have GPS
  std::vector<std::string> outliers;     // names whose prior was dropped in this review
  std::optional<EnuFrame> frame;         // null when no image has GPS
  double horizontal_spread_m = 0;        // largest distance from the median position
};

// Reviews the priors of `image_ids` (name order): chooses and stores the ENU frame (median of
// the positions; deleted when none), drops outliers' priors, and warns, naming the files,
// about outliers, images without GPS among GPS images, and positions that are all one point.
GpsReview ReviewGpsPriors(const GpsPriorOptions& options, const std::vector<int>& image_ids,
                          SceneDatabase* database);

// Per image of `image_ids`, its WGS84 prior in the database's ENU frame; nullopt without a
// prior (all nullopt when no ENU frame is stored).
std::vector<std::optional<Eigen::Vector3d>> PriorPositionsEnu(const SceneDatabase& database,
                                                              const std::vector<int>& image_ids);

}  // namespace proj
