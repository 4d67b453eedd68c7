#include "sfm/pipeline/gps_priors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"

namespace proj {
namespace {

double Median(std::vector<double> values) {
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  return values[middle];
}

// "a.jpg, b.jpg, c.jpg and 7 more"
std::string NameList(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  std::ostringstream text;
  for (size_t i = 0; i < std::min(names.size(), kShown); ++i) {
    text << (i > 0 ? ", " : "") << "'" << names[i] << "'";
  }
  if (names.size() > kShown) text << " and " << names.size() - kShown << " more";
  return text.str();
}

Wgs84Position Wgs84Of(const PosePrior& prior) {
  return Wgs84Position{prior.position.x(), prior.position.y(), prior.position.z()};
}

}  // namespace

void GpsPriorOptions::Check() const {
  PROJ_REQUIRE(default_horizontal_std_m > 0 && dop_error_m > 0 && vertical_std_factor > 0 &&
                   missing_altitude_std_m > 0,
               "GPS prior standard deviations must be positive");
  PROJ_REQUIRE(jump_factor > 1 && jump_min_m > 0 && altitude_outlier_m > 0,
               "GPS outlier thresholds must be positive (jump_factor > 1)");
}

PosePrior PosePriorFromGps(const GpsPriorOptions& options, const GpsPosition& gps) {
  double horizontal_std_m = options.default_horizontal_std_m;
  if (gps.horizontal_error_m) {
    horizontal_std_m = *gps.horizontal_error_m;
  } else if (gps.dop) {
    horizontal_std_m = *gps.dop * options.dop_error_m;
  }
  const double vertical_std_m =
      gps.altitude_m ? options.vertical_std_factor * horizontal_std_m : options.missing_altitude_std_m;
  PosePrior prior;
  prior.coordinate_system = PosePrior::CoordinateSystem::kWgs84;
  prior.position = Eigen::Vector3d(gps.latitude_deg, gps.longitude_deg, gps.altitude_m.value_or(0));
  prior.position_covariance =
      Eigen::Vector3d(horizontal_std_m * horizontal_std_m, horizontal_std_m * horizontal_std_m,
                      vertical_std_m * vertical_std_m)
          .asDiagonal();
  return prior;
}

void WriteGpsPrior(const GpsPriorOptions& options, const std::optional<GpsPosition>& gps,
                   int image_id, SceneDatabase* database) {
  if (gps) {
    database->WritePosePrior(image_id, PosePriorFromGps(options, *gps));
  } else {
    database->DeletePosePrior(image_id);
  }
}

std::vector<bool> FindGpsOutliers(const GpsPriorOptions& options,
                                  const std::vector<Eigen::Vector3d>& positions_m) {
  const int n = static_cast<int>(positions_m.size());
  std::vector<bool> outlier(n, false);
  if (n < 3) return outlier;
  std::vector<double> steps;
  for (int i = 1; i < n; ++i) steps.push_back((positions_m[i] - positions_m[i - 1]).norm());
  const double jump_m = std::max(options.jump_min_m, options.jump_factor * Median(steps));
  const auto distance = [&](int a, int b) { return (positions_m[a] - positions_m[b]).norm(); };
  const auto vertical = [&](int a, int b) { return std::abs(positions_m[a].z() - positions_m[b].z()); };
  // A spike: far from both neighbours that agree with each other (either side; the next two
  // or the previous two at the ends). A change of flight line or of flight keeps one
  // neighbour close, so it is no spike.
  const auto spike = [&](int i, const auto& measure, double threshold) {
    const int a = i == 0 ? 1 : i - 1;
    const int b = i == 0 ? 2 : i == n - 1 ? n - 3 : i + 1;
    return measure(i, a) > threshold && measure(i, b) > threshold && measure(a, b) <= threshold;
  };
  for (int i = 0; i < n; ++i) {
    outlier[i] = spike(i, distance, jump_m) || spike(i, vertical, options.altitude_outlier_m);
  }
  return outlier;
}

GpsReview ReviewGpsPriors(const GpsPriorOptions& options, const std::vector<int>& image_ids,
                          SceneDatabase* database) {
  options.Check();
  GpsReview review;
  review.num_images = static_cast<int>(image_ids.size());
  std::map<int, std::string> names;
  for (const DatabaseImage& image : database->ReadImages()) names[image.image_id] = image.name;
  std::vector<int> tagged;  // image ids with a WGS84 prior, name order
  std::vector<Wgs84Position> positions;
  for (int id : image_ids) {
    const std::optional<PosePrior> prior = database->ReadPosePrior(id);
    if (prior && prior->coordinate_system == PosePrior::CoordinateSystem::kWgs84 &&
        IsValidWgs84(Wgs84Of(*prior))) {
      tagged.push_back(id);
      positions.push_back(Wgs84Of(*prior));
    } else {
      review.without_gps.push_back(names[id]);
    }
  }
  SceneDatabase::Transaction transaction(database);
  if (tagged.empty()) {
    database->DeleteEnuFrame();
    transaction.Commit();
    review.without_gps.clear();
    return review;
  }
  const std::vector<bool> outlier =
      FindGpsOutliers(options, EnuFromWgs84(ChooseEnuFrame(positions), positions));
  std::vector<Wgs84Position> kept_wgs84;
  for (size_t i = 0; i < tagged.size(); ++i) {
    if (outlier[i]) {
      database->DeletePosePrior(tagged[i]);
      review.outliers.push_back(names[tagged[i]]);
    } else {
      kept_wgs84.push_back(positions[i]);
    }
  }
  // The frame of the kept positions, so a re-run (outliers already gone) finds the same one.
  review.frame = ChooseEnuFrame(kept_wgs84.empty() ? positions : kept_wgs84);
  database->WriteEnuFrame(*review.frame);
  transaction.Commit();
  const std::vector<Eigen::Vector3d> kept = EnuFromWgs84(*review.frame, kept_wgs84);
  review.num_with_gps = static_cast<int>(kept.size());
  if (!kept.empty()) {
    std::vector<double> east, north;
    for (const Eigen::Vector3d& p : kept) {
      east.push_back(p.x());
      north.push_back(p.y());
    }
    const Eigen::Vector2d median(Median(east), Median(north));
    for (const Eigen::Vector3d& p : kept) {
      review.horizontal_spread_m = std::max(review.horizontal_spread_m, (p.head<2>() - median).norm());
    }
  }

  PROJ_LOG(kInfo, "GPS: " << review.num_with_gps << " of " << review.num_images
                          << " images have a position prior; ENU frame at latitude "
                          << review.frame->ref_latitude_deg << ", longitude "
                          << review.frame->ref_longitude_deg << ", altitude "
                          << review.frame->ref_altitude_m << " m");
  if (!review.outliers.empty()) {
    PROJ_LOG(kWarning, "GPS: the position of " << NameList(review.outliers)
                                               << " jumps away from the neighbouring images "
                                                  "(or its altitude does); prior dropped");
  }
  if (!review.without_gps.empty()) {
    PROJ_LOG(kWarning, "GPS: " << review.without_gps.size() << " image(s) have no GPS position ("
                               << NameList(review.without_gps)
                               << "); spatial matching links them by name order only");
  }
  if (review.num_with_gps >= 2 && review.horizontal_spread_m < 1.0) {
    PROJ_LOG(kWarning, "GPS: all " << review.num_with_gps << " positions lie within "
                                   << review.horizontal_spread_m
                                   << " m of each other (a hovering drone, or one fix copied to "
                                      "every file): they cannot place the images");
  }
  return review;
}

std::vector<std::optional<Eigen::Vector3d>> PriorPositionsEnu(const SceneDatabase& database,
                                                              const std::vector<int>& image_ids) {
  std::vector<std::optional<Eigen::Vector3d>> positions(image_ids.size());
  const std::optional<EnuFrame> frame = database.ReadEnuFrame();
  if (!frame) return positions;
  const LocalEnuConverter converter(*frame);
  for (size_t i = 0; i < image_ids.size(); ++i) {
    const std::optional<PosePrior> prior = database.ReadPosePrior(image_ids[i]);
    if (prior && prior->coordinate_system == PosePrior::CoordinateSystem::kWgs84 &&
        IsValidWgs84(Wgs84Of(*prior))) {
      positions[i] = converter.EnuFromWgs84(Wgs84Of(*prior));
    }
  }
  return positions;
}

}  // namespace proj
