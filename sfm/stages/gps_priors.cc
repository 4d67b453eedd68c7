#include "sfm/stages/gps_priors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"
#include "core/statistics.h"
#include "geometry/spatial/point_kd_tree.h"

namespace proj {
namespace {

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

std::optional<VerticalDatum> AltitudeDatumOf(const ExifData& exif) {
  if (!exif.gps || !exif.gps->altitude_m) return std::nullopt;
  const bool ellipsoid = exif.gps->altitude_reference == GpsAltitudeReference::kEllipsoid ||
                         exif.drone.rtk_flag.has_value();
  return ellipsoid ? VerticalDatum::kEllipsoid : VerticalDatum::kEgm96;
}

std::vector<bool> FindGpsOutliersInSequence(const GpsPriorOptions& options,
                                            const std::vector<Eigen::Vector3d>& positions_m) {
  const int n = static_cast<int>(positions_m.size());
  std::vector<bool> outlier(n, false);
  if (n < 3) return outlier;
  std::vector<double> steps;
  for (int i = 1; i < n; ++i) steps.push_back((positions_m[i] - positions_m[i - 1]).norm());
  const double jump_m = std::max(options.jump_min_m, options.jump_factor * UpperMedian(steps));
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

std::vector<bool> FindGpsOutliersSpatially(const GpsPriorOptions& options,
                                           const std::vector<Eigen::Vector3d>& positions_m) {
  const int n = static_cast<int>(positions_m.size());
  std::vector<bool> outlier(n, false);
  if (n < 3) return outlier;
  const double kInfinity = std::numeric_limits<double>::infinity();
  const PointKdTree tree(positions_m);
  std::vector<double> nearest_m(n);
  for (int i = 0; i < n; ++i) {
    const int j = tree.Nearest(positions_m[i], 1, kInfinity, i).front();
    nearest_m[i] = (positions_m[j] - positions_m[i]).norm();
  }
  const double jump_m = std::max(options.jump_min_m, options.jump_factor * UpperMedian(nearest_m));
  // Horizontal neighbours: the same tree query on positions flattened to the ground.
  std::vector<Eigen::Vector3d> ground = positions_m;
  for (Eigen::Vector3d& p : ground) p.z() = 0;
  const PointKdTree ground_tree(ground);
  constexpr int kAltitudeNeighbours = 8;
  for (int i = 0; i < n; ++i) {
    if (nearest_m[i] > jump_m) {
      outlier[i] = true;
      continue;
    }
    const std::vector<int> neighbours = ground_tree.Nearest(ground[i], kAltitudeNeighbours, kInfinity, i);
    std::vector<double> altitudes;
    bool agrees_with_one = false;
    for (int j : neighbours) {
      altitudes.push_back(positions_m[j].z());
      agrees_with_one |= std::abs(positions_m[j].z() - positions_m[i].z()) <= options.altitude_outlier_m;
    }
    const double median = UpperMedian(altitudes);
    const int consistent = static_cast<int>(std::count_if(altitudes.begin(), altitudes.end(), [&](double z) {
      return std::abs(z - median) <= options.altitude_outlier_m;
    }));
    outlier[i] = !agrees_with_one && consistent >= 2;
  }
  return outlier;
}

bool CaptureTimesGiveFlightOrder(const std::vector<std::optional<double>>& capture_times_s) {
  std::vector<double> times;
  for (const std::optional<double>& t : capture_times_s) {
    if (t) times.push_back(*t);
  }
  std::sort(times.begin(), times.end());
  const size_t distinct = std::unique(times.begin(), times.end()) - times.begin();
  return times.size() == capture_times_s.size() && 2 * distinct >= times.size();
}

std::vector<bool> FindGpsOutliers(const GpsPriorOptions& options,
                                  const std::vector<Eigen::Vector3d>& positions_m,
                                  const std::vector<std::optional<double>>& capture_times_s) {
  PROJ_CHECK(capture_times_s.size() == positions_m.size(), "one capture time per position");
  const int n = static_cast<int>(positions_m.size());
  if (!CaptureTimesGiveFlightOrder(capture_times_s)) return FindGpsOutliersSpatially(options, positions_m);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return *capture_times_s[a] < *capture_times_s[b]; });
  std::vector<Eigen::Vector3d> in_time_order;
  for (int i : order) in_time_order.push_back(positions_m[i]);
  const std::vector<bool> flags = FindGpsOutliersInSequence(options, in_time_order);
  std::vector<bool> outlier(n, false);
  for (int k = 0; k < n; ++k) outlier[order[k]] = flags[k];
  return outlier;
}

namespace {

// The datum of image `id`'s altitude: imposed, or as its file said (EGM96 when unrecorded:
// databases from before it was, or COLMAP's, hold EXIF altitudes, "above sea level").
VerticalDatum FixDatum(const std::optional<VerticalDatum>& imposed, const SceneDatabase& database,
                       int id) {
  if (imposed) return *imposed;
  return database.ReadImageCapture(id).altitude_datum.value_or(VerticalDatum::kEgm96);
}

// The datum most of `datums` are in (EGM96 on a tie).
VerticalDatum MostCommon(const std::vector<VerticalDatum>& datums) {
  const auto ellipsoid = std::count(datums.begin(), datums.end(), VerticalDatum::kEllipsoid);
  return 2 * ellipsoid > static_cast<long>(datums.size()) ? VerticalDatum::kEllipsoid : VerticalDatum::kEgm96;
}

// Converts heights to the datum `to` where the grid allows, counting those it could not.
class FixHeights {
 public:
  explicit FixHeights(VerticalDatum to) : to_(to) {}
  Wgs84Position In(Wgs84Position p, VerticalDatum from) {
    if (from == to_) return p;
    if (!converter_) converter_ = std::make_unique<HeightConverter>();
    if (!converter_->available()) {
      ++num_unconverted_;
      return p;
    }
    p.altitude_m = converter_->Convert(p.latitude_deg, p.longitude_deg, p.altitude_m, from, to_);
    return p;
  }
  int num_unconverted() const { return num_unconverted_; }

 private:
  VerticalDatum to_;
  std::unique_ptr<HeightConverter> converter_;
  int num_unconverted_ = 0;
};

}  // namespace

GpsReview ReviewGpsPriors(const GpsPriorOptions& options, const std::vector<int>& image_ids,
                          SceneDatabase* database) {
  options.Check();
  GpsReview review;
  review.num_images = static_cast<int>(image_ids.size());
  std::map<int, std::string> names;
  for (const DatabaseImage& image : database->ReadImages()) names[image.image_id] = image.name;
  std::vector<int> tagged;  // image ids with a WGS84 prior
  std::vector<Wgs84Position> stated;  // their positions, altitudes as the files state them
  std::vector<VerticalDatum> datums;
  std::vector<std::optional<double>> times;
  for (int id : image_ids) {
    const std::optional<PosePrior> prior = database->ReadPosePrior(id);
    if (prior && prior->coordinate_system == PosePrior::CoordinateSystem::kWgs84 &&
        IsValidWgs84(Wgs84Of(*prior))) {
      tagged.push_back(id);
      stated.push_back(Wgs84Of(*prior));
      datums.push_back(FixDatum(options.altitude_datum, *database, id));
      times.push_back(database->ReadImageCapture(id).time_s);
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
  // Heights above the ellipsoid where the geoid grid allows; else in the fixes' own datum.
  const VerticalDatum output_datum = MostCommon(datums);
  const bool needs_geoid = std::count(datums.begin(), datums.end(), VerticalDatum::kEgm96) > 0;
  const bool has_geoid = !needs_geoid || HeightConverter().available();
  const VerticalDatum frame_datum = has_geoid ? VerticalDatum::kEllipsoid : output_datum;
  FixHeights heights(frame_datum);
  std::vector<Wgs84Position> positions;
  for (size_t i = 0; i < tagged.size(); ++i) positions.push_back(heights.In(stated[i], datums[i]));
  review.geoid_missing = !has_geoid;

  const std::vector<bool> outlier =
      FindGpsOutliers(options, EnuFromWgs84(ChooseEnuFrame(positions), positions), times);
  review.ordered_by_time = CaptureTimesGiveFlightOrder(times);
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
  review.frame->heights = frame_datum;
  review.frame->output_heights = output_datum;
  review.frame->fixes_datum = options.altitude_datum;
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
    const Eigen::Vector2d median(UpperMedian(east), UpperMedian(north));
    for (const Eigen::Vector3d& p : kept) {
      review.horizontal_spread_m = std::max(review.horizontal_spread_m, (p.head<2>() - median).norm());
    }
  }

  PROJ_LOG(kInfo, "GPS: " << review.num_with_gps << " of " << review.num_images
                          << " images have a position prior; ENU frame at latitude "
                          << review.frame->ref_latitude_deg << ", longitude "
                          << review.frame->ref_longitude_deg << ", altitude "
                          << review.frame->ref_altitude_m << " m ("
                          << VerticalDatumName(frame_datum) << "); altitudes taken as "
                          << VerticalDatumName(output_datum)
                          << (options.altitude_datum ? " (--gps-altitude-datum)" : ""));
  if (review.geoid_missing) {
    PROJ_LOG(kWarning, "GPS: " << MissingGeoidGridMessage()
                               << ": altitudes above sea level are used as heights above the "
                                  "ellipsoid, so the model sits the geoid height (up to ~100 m) "
                                  "off vertically in its ENU frame; heights in points.las and "
                                  "cameras.csv stay above sea level, as in the photos");
  }
  if (heights.num_unconverted() > 0) {
    PROJ_LOG(kWarning, "GPS: " << heights.num_unconverted() << " image(s) state their altitude in "
                               << "another datum than the others; without the geoid grid it is "
                                  "used as it is");
  }
  if (!review.outliers.empty()) {
    PROJ_LOG(kWarning, "GPS: the position of " << NameList(review.outliers)
                                               << " jumps away from the neighbouring images ("
                                               << (review.ordered_by_time ? "in capture-time order"
                                                                          : "nearest by position")
                                               << "; or its altitude does); prior dropped");
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
  FixHeights heights(frame->heights);
  for (size_t i = 0; i < image_ids.size(); ++i) {
    const std::optional<PosePrior> prior = database.ReadPosePrior(image_ids[i]);
    if (prior && prior->coordinate_system == PosePrior::CoordinateSystem::kWgs84 &&
        IsValidWgs84(Wgs84Of(*prior))) {
      const VerticalDatum datum = FixDatum(frame->fixes_datum, database, image_ids[i]);
      positions[i] = converter.EnuFromWgs84(heights.In(Wgs84Of(*prior), datum));
    }
  }
  return positions;
}

}  // namespace proj
