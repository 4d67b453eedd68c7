#include "mvs/source_view_selection.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/check.h"
#include "mvs/scene_views.h"

namespace proj::mvs {
namespace {

// 0 at t <= 0, 1 at t >= 1, C1-smooth in between.
double SmoothStep(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * (3 - 2 * t);
}

// What the scores need of each registered image.
struct PoseOfImage {
  bool registered = false;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  // cam_from_world
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  double focal_px = 1;
};

std::vector<PoseOfImage> PosesOf(const Scene& scene) {
  std::vector<PoseOfImage> poses(scene.images.size());
  for (size_t id = 0; id < scene.images.size(); ++id) {
    const SceneImage& image = scene.images[id];
    if (!image.registered) continue;
    PoseOfImage& pose = poses[id];
    pose.registered = true;
    pose.rotation = image.cam_from_world.rotation.normalized().toRotationMatrix();
    pose.translation = image.cam_from_world.translation;
    pose.center = image.cam_from_world.Center();
    pose.focal_px = scene.cameras.at(image.camera_id).MeanFocal();
  }
  return poses;
}

// The value at `percentile` (0..100) of `values` (not empty), nearest rank.
float Percentile(std::vector<float>* values, double percentile) {
  const size_t rank = static_cast<size_t>(std::lround(percentile / 100.0 * (values->size() - 1)));
  std::nth_element(values->begin(), values->begin() + rank, values->end());
  return (*values)[rank];
}

}  // namespace

void SourceViewOptions::Check() const {
  PROJ_REQUIRE(max_num_sources >= 1, "SourceViewOptions.max_num_sources must be >= 1, not " << max_num_sources);
  PROJ_REQUIRE(min_angle_deg >= 0 && min_angle_deg < full_angle_deg && full_angle_deg <= max_full_angle_deg &&
                   max_full_angle_deg < max_angle_deg && max_angle_deg <= 180,
               "SourceViewOptions angles must satisfy 0 <= min_angle_deg < full_angle_deg <= "
               "max_full_angle_deg < max_angle_deg <= 180");
  PROJ_REQUIRE(max_scale_ratio >= 1, "SourceViewOptions.max_scale_ratio must be >= 1, not " << max_scale_ratio);
  PROJ_REQUIRE(min_relative_score >= 0 && min_relative_score <= 1,
               "SourceViewOptions.min_relative_score must be in [0, 1], not " << min_relative_score);
}

void DepthRangeOptions::Check() const {
  PROJ_REQUIRE(low_percentile >= 0 && low_percentile < high_percentile && high_percentile <= 100,
               "DepthRangeOptions percentiles must satisfy 0 <= low_percentile < high_percentile <= 100");
  PROJ_REQUIRE(margin >= 0 && margin < 1, "DepthRangeOptions.margin must be in [0, 1), not " << margin);
  PROJ_REQUIRE(min_points >= 1, "DepthRangeOptions.min_points must be >= 1, not " << min_points);
}

double TriangulationAngleWeight(double angle_deg, const SourceViewOptions& options) {
  if (angle_deg <= options.max_full_angle_deg) {
    return SmoothStep((angle_deg - options.min_angle_deg) / (options.full_angle_deg - options.min_angle_deg));
  }
  return 1 - SmoothStep((angle_deg - options.max_full_angle_deg) /
                        (options.max_angle_deg - options.max_full_angle_deg));
}

double ScaleRatioWeight(double ratio, const SourceViewOptions& options) {
  if (!(ratio > 0)) return 0;
  const double larger = std::max(ratio, 1 / ratio);
  if (larger <= options.max_scale_ratio) return 1;
  const double shrink = options.max_scale_ratio / larger;
  return shrink * shrink;
}

std::vector<std::vector<int>> SelectSourceViews(const Scene& scene, const SourceViewOptions& options) {
  options.Check();
  const std::vector<PoseOfImage> poses = PosesOf(scene);
  // Symmetric pair scores, one map per image: a model's pairs are sparse.
  std::vector<std::unordered_map<int, double>> scores(scene.images.size());
  std::vector<int> observers;
  for (const auto& [point_id, point] : scene.points) {
    observers.clear();
    for (const TrackElement& element : point.track) {
      if (element.image_id >= 0 && element.image_id < static_cast<int>(poses.size()) &&
          poses[element.image_id].registered) {
        observers.push_back(element.image_id);
      }
    }
    std::sort(observers.begin(), observers.end());
    observers.erase(std::unique(observers.begin(), observers.end()), observers.end());
    for (size_t i = 0; i < observers.size(); ++i) {
      const PoseOfImage& a = poses[observers[i]];
      const Eigen::Vector3d ray_a = point.position - a.center;
      const double depth_a = (a.rotation * point.position + a.translation).z();
      if (!(depth_a > 0)) continue;
      for (size_t j = i + 1; j < observers.size(); ++j) {
        const PoseOfImage& b = poses[observers[j]];
        const Eigen::Vector3d ray_b = point.position - b.center;
        const double depth_b = (b.rotation * point.position + b.translation).z();
        if (!(depth_b > 0)) continue;
        const double cosine = ray_a.dot(ray_b) / (ray_a.norm() * ray_b.norm());
        const double angle_deg = std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / M_PI;
        const double footprint_ratio = (depth_a / a.focal_px) / (depth_b / b.focal_px);
        const double weight =
            TriangulationAngleWeight(angle_deg, options) * ScaleRatioWeight(footprint_ratio, options);
        if (weight <= 0) continue;
        scores[observers[i]][observers[j]] += weight;
        scores[observers[j]][observers[i]] += weight;
      }
    }
  }
  std::vector<std::vector<int>> sources(scene.images.size());
  for (size_t id = 0; id < scene.images.size(); ++id) {
    std::vector<std::pair<double, int>> ranked;
    for (const auto& [other, score] : scores[id]) ranked.emplace_back(score, other);
    // Best first; equal scores by image id, so the choice does not depend on hash order.
    std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first > y.first : x.second < y.second;
    });
    for (const auto& [score, other] : ranked) {
      if (static_cast<int>(sources[id].size()) >= options.max_num_sources) break;
      if (score < options.min_relative_score * ranked.front().first) break;
      sources[id].push_back(other);
    }
  }
  return sources;
}

std::optional<DepthRange> ComputeDepthRange(const Scene& scene, int image_id, const DepthRangeOptions& options) {
  options.Check();
  const SceneImage& image = scene.images.at(image_id);
  PROJ_CHECK(image.registered, "image " << image_id << " is not registered");
  const Camera& camera = scene.cameras.at(image.camera_id);
  std::vector<float> depths;
  for (const int point_id : image.point3d_ids) {
    if (point_id == kInvalidId) continue;
    const auto point = scene.points.find(point_id);
    if (point == scene.points.end()) continue;
    const double depth = (image.cam_from_world * point->second.position).z();
    if (depth > 0) depths.push_back(static_cast<float>(depth));
  }
  if (static_cast<int>(depths.size()) < options.min_points) {
    depths.clear();
    for (const auto& [id, point] : scene.points) {
      const Eigen::Vector3d point_cam = image.cam_from_world * point.position;
      Eigen::Vector2d uv;
      if (!camera.Project(point_cam, &uv)) continue;
      if (uv.x() < 0 || uv.y() < 0 || uv.x() >= camera.width || uv.y() >= camera.height) continue;
      depths.push_back(static_cast<float>(point_cam.z()));
    }
  }
  if (depths.empty()) return std::nullopt;
  const float low = Percentile(&depths, options.low_percentile);
  const float high = Percentile(&depths, options.high_percentile);
  DepthRange range;
  range.min = static_cast<float>(low * (1 - options.margin));
  range.max = static_cast<float>(high * (1 + options.margin));
  // Every depth equal and no margin: a range around it all the same (min < max).
  if (!(range.max > range.min)) range.max = range.min * 1.01f;
  if (!(range.min > 0) || !(range.max > range.min)) return std::nullopt;
  return range;
}

std::vector<DepthSeed> ComputeDepthSeeds(const Scene& scene, int image_id) {
  const SceneImage& image = scene.images.at(image_id);
  const ViewGeometry view = PinholeViewGeometry(scene, image_id);
  std::vector<DepthSeed> seeds;
  for (const int point_id : image.point3d_ids) {
    if (point_id == kInvalidId) continue;
    const auto point = scene.points.find(point_id);
    if (point == scene.points.end()) continue;
    const Eigen::Vector3d point_cam = view.CamFromWorld(point->second.position);
    if (!(point_cam.z() > 0)) continue;
    const Eigen::Vector2d uv = view.camera.Project(point_cam);
    const double x = std::floor(uv.x()), y = std::floor(uv.y());
    if (!(x >= 0 && y >= 0 && x < view.camera.width && y < view.camera.height)) continue;
    seeds.push_back({static_cast<int>(x), static_cast<int>(y), static_cast<float>(point_cam.z())});
  }
  return seeds;
}

}  // namespace proj::mvs
