// GPS positions of the images as pose priors in the scene database: written at extraction
// from the files' EXIF (WGS84 latitude and longitude, the altitude as the file states it;
// COLMAP 3.10's pose_priors layout) with the altitude's vertical datum and the capture time
// (proj_image_capture), then reviewed over the whole folder, which fixes the local ENU frame
// (stored in proj_enu_frame) and drops the priors of images whose position jumps away from
// the flight path. Pair selection and bundle adjustment read the priors as ENU positions.
//
// Heights: altitudes above sea level (EGM96) are converted to heights above the ellipsoid for
// the ENU frame (geometry/geodesy/vertical_datum.h). Without PROJ's geoid grid they are used as
// they are, with a warning: the frame then sits the geoid height off vertically, and the
// outputs, written back in the fixes' datum, keep the files' heights all the same.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/geodesy/vertical_datum.h"
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
  // between consecutive images) from both neighbours in flight order, while those neighbours
  // are within that of each other, is an outlier (a position jump); so is one whose altitude
  // differs by more than altitude_outlier_m from both neighbours that agree with each other.
  // Outliers lose their prior. Without capture times, neighbours are spatial (FindGpsOutliers).
  double jump_factor = 4.0;
  double jump_min_m = 20.0;
  double altitude_outlier_m = 30.0;
  // The datum of the fixes' altitudes (--gps-altitude-datum): nullopt takes each file's word
  // (AltitudeDatumOf); a value is imposed on every fix (for a drone whose files say "above sea
  // level" but hold ellipsoidal heights, or the reverse).
  std::optional<VerticalDatum> altitude_datum;
  void Check() const;
};

// The vertical datum of the altitude `exif` states: the ellipsoid when GPSAltitudeRef says so
// (2 or 3, Exif 3.0) or the XMP has DJI's RtkFlag (its RTK aircraft write ellipsoidal
// heights); otherwise EGM96, as "above sea level" (GPSAltitudeRef 0 or 1, the EXIF default)
// means for GNSS receivers. nullopt without a GPS altitude.
std::optional<VerticalDatum> AltitudeDatumOf(const ExifData& exif);

// The WGS84 prior of a fix: position (latitude, longitude, altitude), covariance diagonal in
// square metres along east, north, up.
PosePrior PosePriorFromGps(const GpsPriorOptions& options, const GpsPosition& gps);

// Writes the prior of `gps` for `image_id`, or deletes a stored one when there is no fix.
void WriteGpsPrior(const GpsPriorOptions& options, const std::optional<GpsPosition>& gps,
                   int image_id, SceneDatabase* database);

// Outliers among GPS positions (ENU, metres), in any order. When the capture times give the
// flight order (CaptureTimesGiveFlightOrder) an outlier is a spike in it as described above. Otherwise neighbours are spatial: an image
// whose nearest other position is farther than the jump threshold (the median
// nearest-neighbour distance in place of the median step), or whose altitude differs by more
// than altitude_outlier_m from each of its 8 nearest images horizontally while at least two
// of those agree with each other.
std::vector<bool> FindGpsOutliers(const GpsPriorOptions& options,
                                  const std::vector<Eigen::Vector3d>& positions_m,
                                  const std::vector<std::optional<double>>& capture_times_s);
// Whether the capture times order the flight: every position has one and at least half of
// them differ (a camera with an unset clock stamps every photo alike).
bool CaptureTimesGiveFlightOrder(const std::vector<std::optional<double>>& capture_times_s);
// The spike rule alone, on positions already in flight order.
std::vector<bool> FindGpsOutliersInSequence(const GpsPriorOptions& options,
                                            const std::vector<Eigen::Vector3d>& positions_m);
// The spatial rule alone.
std::vector<bool> FindGpsOutliersSpatially(const GpsPriorOptions& options,
                                           const std::vector<Eigen::Vector3d>& positions_m);

struct GpsReview {
  int num_images = 0;
  int num_with_gps = 0;  // after outliers were dropped
  std::vector<std::string> without_gps;  // names, among a folder where others have GPS
  std::vector<std::string> outliers;     // names whose prior was dropped in this review
  std::optional<EnuFrame> frame;         // null when no image has GPS
  double horizontal_spread_m = 0;        // largest distance from the median position
  bool ordered_by_time = false;          // outliers were looked for in capture-time order
  bool geoid_missing = false;            // sea-level altitudes could not be converted
};

// Reviews the priors of `image_ids`: chooses and stores the ENU frame (median of the
// positions; heights ellipsoidal, or in the fixes' datum without the geoid grid; deleted when
// no image has a prior), drops outliers' priors, and warns, naming the files, about outliers,
// images without GPS among GPS images, and positions that are all one point.
GpsReview ReviewGpsPriors(const GpsPriorOptions& options, const std::vector<int>& image_ids,
                          SceneDatabase* database);

// Per image of `image_ids`, its WGS84 prior in the database's ENU frame (altitudes in the
// frame's datum, EnuFrame::fixes_datum or the image's own converted to it); nullopt without a
// prior (all nullopt when no ENU frame is stored).
std::vector<std::optional<Eigen::Vector3d>> PriorPositionsEnu(const SceneDatabase& database,
                                                              const std::vector<int>& image_ids);

}  // namespace proj
