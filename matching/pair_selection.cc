#include "matching/pair_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/check.h"
#include "geometry/spatial/point_kd_tree.h"

namespace proj {
namespace {

void AddSequential(int num_images, int overlap, std::vector<ImagePair>* pairs) {
  for (int i = 0; i < num_images; ++i) {
    for (int j = i + 1; j <= std::min(num_images - 1, i + overlap); ++j) pairs->push_back({i, j});
  }
}

void SortUnique(std::vector<ImagePair>* pairs) {
  const auto key = [](const ImagePair& p) { return std::make_pair(p.image1, p.image2); };
  std::sort(pairs->begin(), pairs->end(),
            [&](const ImagePair& a, const ImagePair& b) { return key(a) < key(b); });
  pairs->erase(std::unique(pairs->begin(), pairs->end(),
                           [&](const ImagePair& a, const ImagePair& b) { return key(a) == key(b); }),
               pairs->end());
}

double Median(std::vector<double> values) {
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  return values[middle];
}

// Largest horizontal distance of a position from the componentwise median.
double HorizontalSpread(const std::vector<Eigen::Vector3d>& points) {
  std::vector<double> x, y;
  for (const Eigen::Vector3d& p : points) {
    x.push_back(p.x());
    y.push_back(p.y());
  }
  const Eigen::Vector2d median(Median(x), Median(y));
  double spread = 0;
  for (const Eigen::Vector3d& p : points) spread = std::max(spread, (p.head<2>() - median).norm());
  return spread;
}

std::vector<ImagePair> SpatialPairs(const PairSelectionOptions& options,
                                    const std::vector<std::optional<Eigen::Vector3d>>& positions) {
  const int num_images = static_cast<int>(positions.size());
  std::vector<int> image_of_point;
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < num_images; ++i) {
    if (!positions[i]) continue;
    image_of_point.push_back(i);
    points.emplace_back(positions[i]->x(), positions[i]->y(), 0.0);  // horizontal distance
  }
  const PointKdTree tree(points);
  const double max_distance = options.spatial_max_distance_m > 0
                                  ? options.spatial_max_distance_m
                                  : std::numeric_limits<double>::infinity();
  std::vector<ImagePair> pairs;
  for (int p = 0; p < tree.size(); ++p) {
    for (int q : tree.Nearest(points[p], options.spatial_neighbors, max_distance, p)) {
      const int a = image_of_point[p], b = image_of_point[q];
      pairs.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  AddSequential(num_images, options.spatial_sequential_overlap, &pairs);
  return pairs;
}

}  // namespace

void PairSelectionOptions::Check() const {
  PROJ_REQUIRE(overlap >= 1, "--overlap must be >= 1 (got " << overlap << ")");
  PROJ_REQUIRE(spatial_neighbors >= 1,
               "--spatial-neighbors must be >= 1 (got " << spatial_neighbors << ")");
  PROJ_REQUIRE(spatial_max_distance_m >= 0 && std::isfinite(spatial_max_distance_m),
               "--spatial-max-distance-m must be >= 0 (got " << spatial_max_distance_m << ")");
  PROJ_REQUIRE(spatial_sequential_overlap >= 0,
               "--spatial-overlap must be >= 0 (got " << spatial_sequential_overlap << ")");
  PROJ_REQUIRE(auto_min_gps_fraction >= 0 && auto_min_gps_fraction <= 1,
               "PairSelectionOptions.auto_min_gps_fraction must be in [0, 1]");
  PROJ_REQUIRE(min_position_spread_m >= 0,
               "PairSelectionOptions.min_position_spread_m must be >= 0");
}

const char* PairSelectionName(PairSelection mode) {
  switch (mode) {
    case PairSelection::kExhaustive: return "exhaustive";
    case PairSelection::kSequential: return "sequential";
    case PairSelection::kSpatial: return "spatial";
    case PairSelection::kAuto: return "auto";
  }
  return "?";
}

PairSelectionReport SelectImagePairs(const PairSelectionOptions& options,
                                     const std::vector<std::optional<Eigen::Vector3d>>& positions_m) {
  options.Check();
  const int num_images = static_cast<int>(positions_m.size());
  PairSelectionReport report;
  report.mode = options.mode;
  if (options.mode == PairSelection::kAuto || options.mode == PairSelection::kSpatial) {
    std::vector<Eigen::Vector3d> known;
    for (const auto& p : positions_m) {
      if (p && p->allFinite()) known.push_back(*p);
    }
    std::ostringstream note;
    note << known.size() << " of " << num_images << " images have a GPS position";
    report.mode = PairSelection::kSpatial;
    if (known.size() < 2) {
      report.mode = PairSelection::kExhaustive;
    } else if (options.mode == PairSelection::kAuto &&
               known.size() < options.auto_min_gps_fraction * num_images) {
      report.mode = PairSelection::kExhaustive;
      note << " (fewer than " << options.auto_min_gps_fraction * 100 << "%)";
    } else if (const double spread = HorizontalSpread(known); spread < options.min_position_spread_m) {
      report.mode = PairSelection::kExhaustive;
      note << ", all within " << spread << " m of each other: positions are degenerate";
    }
    note << (report.mode == PairSelection::kSpatial ? "; pairs chosen by position"
                                                     : "; all pairs matched");
    report.note = note.str();
  }
  switch (report.mode) {
    case PairSelection::kSpatial:
      report.pairs = SpatialPairs(options, positions_m);
      break;
    case PairSelection::kSequential:
      AddSequential(num_images, options.overlap, &report.pairs);
      break;
    default:
      AddSequential(num_images, num_images, &report.pairs);
      break;
  }
  SortUnique(&report.pairs);
  return report;
}

std::vector<ImagePair> SelectImagePairs(const PairSelectionOptions& options, int num_images) {
  return SelectImagePairs(options, std::vector<std::optional<Eigen::Vector3d>>(num_images)).pairs;
}

}  // namespace proj
