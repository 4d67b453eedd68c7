#include "sfm/partition/part_merge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "core/check.h"
#include "core/statistics.h"
#include "geometry/ransac/estimate_similarity.h"
#include "sfm/mapper/prior_alignment.h"

namespace proj {

void PartMergeOptions::Check() const {
  PROJ_REQUIRE(max_center_error_spacing > 0, "the merge's centre error threshold must be positive");
  PROJ_REQUIRE(max_rotation_error_deg > 0, "the merge's rotation error threshold must be positive");
  PROJ_REQUIRE(min_shared_images >= 3, "parts are merged by at least 3 shared images (got " << min_shared_images << ")");
  PROJ_REQUIRE(min_inlier_share >= 0 && min_inlier_share <= 1, "the merge's inlier share must be in [0, 1]");
}

int PartMergeSummary::NumMerged() const {
  return static_cast<int>(std::count_if(parts.begin(), parts.end(), [](const auto& p) { return p.merged; }));
}

namespace {

// The median distance of each point to its nearest other point.
double MedianSpacing(const std::vector<Eigen::Vector3d>& points) {
  std::vector<double> nearest;
  for (size_t i = 0; i < points.size(); ++i) {
    double best = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < points.size(); ++j) {
      if (j != i) best = std::min(best, (points[i] - points[j]).norm());
    }
    nearest.push_back(best);
  }
  return UpperMedian(nearest);
}

double AngleDeg(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return a.angularDistance(b) * 180.0 / M_PI;
}

// The registered poses of a part's model only (no keypoints, no points): what an alignment moves.
Scene PosesOnly(const PartModel& part) {
  Scene poses;
  poses.images.resize(part.scene.images.size());
  for (size_t i = 0; i < part.scene.images.size(); ++i) {
    poses.images[i].registered = part.scene.images[i].registered;
    poses.images[i].cam_from_world = part.scene.images[i].cam_from_world;
  }
  return poses;
}

// Aligns `part` to the merged poses (`posed` marks the images that have one) by their shared
// images; fills the record and, on success, `aligned` with the part's poses in the merged frame.
bool AlignPart(const PartMergeOptions& options, const PartModel& part, const Scene& merged,
               const std::vector<char>& posed, PartAlignmentRecord* record, Scene* aligned) {
  std::vector<int> shared_local;
  std::vector<Eigen::Vector3d> src, dst;
  for (size_t i = 0; i < part.image_ids.size(); ++i) {
    const int image = part.image_ids[i];
    if (!part.scene.images[i].registered || !posed[image]) continue;
    shared_local.push_back(static_cast<int>(i));
    src.push_back(part.scene.images[i].cam_from_world.Center());
    dst.push_back(merged.images[image].cam_from_world.Center());
  }
  record->num_shared = static_cast<int>(shared_local.size());
  if (record->num_shared < options.min_shared_images) {
    std::ostringstream reason;
    reason << "shares " << record->num_shared << " registered image(s) with the merged model; at least "
           << options.min_shared_images << " are needed";
    record->failure_reason = reason.str();
    return false;
  }
  const double threshold = options.max_center_error_spacing * MedianSpacing(dst);
  if (!(threshold > 0)) {
    record->failure_reason = "its shared images have one camera centre in the merged model";
    return false;
  }
  RansacOptions ransac;
  ransac.max_error = threshold;
  ransac.min_num_inliers = 3;
  ransac.seed = options.seed + 7919 * static_cast<uint64_t>(record->part);
  const RansacReport<Sim3d> report = EstimateSimilarityTransform(ransac, src, dst);
  if (!report.success || !(report.model.scale > 0) || !std::isfinite(report.model.scale)) {
    record->failure_reason = "no similarity transform agrees with its shared images' camera centres";
    return false;
  }
  *aligned = PosesOnly(part);
  TransformScene(report.model, aligned);
  std::vector<double> center_errors, rotation_errors;
  for (size_t k = 0; k < shared_local.size(); ++k) {
    const Rigid3d& pose = aligned->images[shared_local[k]].cam_from_world;
    const Rigid3d& reference = merged.images[part.image_ids[shared_local[k]]].cam_from_world;
    const double center_error = (pose.Center() - dst[k]).norm();
    const double rotation_error = AngleDeg(pose.rotation, reference.rotation);
    if (center_error <= threshold && rotation_error <= options.max_rotation_error_deg) {
      center_errors.push_back(center_error);
      rotation_errors.push_back(rotation_error);
    }
  }
  record->num_inliers = static_cast<int>(center_errors.size());
  record->median_center_error = UpperMedian(center_errors);
  record->median_rotation_error_deg = UpperMedian(rotation_errors);
  record->merged_from_part = report.model;
  const double needed = std::max(3.0, options.min_inlier_share * record->num_shared);
  if (record->num_inliers < needed) {
    std::ostringstream reason;
    reason << record->num_inliers << " of its " << record->num_shared
           << " shared images agree with the alignment (centre and orientation); at least " << needed
           << " must";
    record->failure_reason = reason.str();
    return false;
  }
  return true;
}

}  // namespace

PartMergeSummary MergePartPoses(const PartMergeOptions& options, const std::vector<PartModel>& parts,
                                const std::vector<int>& core_part, Scene* scene) {
  options.Check();
  const int num_images = static_cast<int>(scene->images.size());
  PROJ_CHECK(static_cast<int>(core_part.size()) == num_images, "core parts and scene disagree");
  PartMergeSummary summary;
  summary.parts.resize(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    const PartModel& part = parts[p];
    PROJ_CHECK(part.image_ids.size() == part.scene.images.size(), "part " << p << ": image ids and scene disagree");
    for (int image : part.image_ids) PROJ_CHECK(image >= 0 && image < num_images, "part " << p << ": bad image id");
    summary.parts[p].part = static_cast<int>(p);
    summary.parts[p].num_registered = part.scene.NumRegisteredImages();
  }
  for (SceneImage& image : scene->images) image.registered = false;
  std::vector<char> posed(num_images, 0);
  std::vector<char> pending(parts.size(), 1);
  std::vector<int> merge_order;
  auto take_poses = [&](int p, const Scene& aligned) {
    const PartModel& part = parts[p];
    for (size_t i = 0; i < part.image_ids.size(); ++i) {
      const int image = part.image_ids[i];
      if (!aligned.images[i].registered || (posed[image] && core_part[image] != p)) continue;
      posed[image] = 1;
      scene->images[image].registered = true;
      scene->images[image].cam_from_world = aligned.images[i].cam_from_world;
    }
  };
  // The first part: the largest model, as it is.
  int first = -1;
  for (size_t p = 0; p < parts.size(); ++p) {
    if (summary.parts[p].num_registered >= 2 &&
        (first < 0 || summary.parts[p].num_registered > summary.parts[first].num_registered)) {
      first = static_cast<int>(p);
    }
  }
  for (size_t p = 0; p < parts.size(); ++p) {
    if (summary.parts[p].num_registered < 2) {
      summary.parts[p].failure_reason = "its model holds fewer than two images";
      pending[p] = 0;
    }
  }
  if (first < 0) return summary;
  take_poses(first, PosesOnly(parts[first]));
  summary.parts[first].merged = true;
  pending[first] = 0;
  merge_order.push_back(first);
  // Then, again and again, the pending part with most registered images already posed in the
  // merged model that aligns; a part that fails now may align once its neighbours are in.
  bool progressed = true;
  while (progressed) {
    progressed = false;
    std::vector<std::pair<int, int>> candidates;  // (-shared, part)
    for (size_t p = 0; p < parts.size(); ++p) {
      if (!pending[p]) continue;
      int shared = 0;
      for (size_t i = 0; i < parts[p].image_ids.size(); ++i) {
        shared += parts[p].scene.images[i].registered && posed[parts[p].image_ids[i]];
      }
      candidates.emplace_back(-shared, static_cast<int>(p));
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto& [negated_shared, p] : candidates) {
      Scene aligned;
      PartAlignmentRecord& record = summary.parts[p];
      if (!AlignPart(options, parts[p], *scene, posed, &record, &aligned)) continue;
      record.merged = true;
      record.failure_reason.clear();
      pending[p] = 0;
      merge_order.push_back(p);
      take_poses(p, aligned);
      progressed = true;
      break;
    }
  }
  // Intrinsics per camera from the merged part that registers most of its images.
  for (size_t c = 0; c < scene->cameras.size(); ++c) {
    int best = -1, best_count = 0;
    for (int p : merge_order) {
      int count = 0;
      for (const SceneImage& image : parts[p].scene.images) {
        count += image.registered && image.camera_id == static_cast<int>(c);
      }
      if (count > best_count) {
        best = p;
        best_count = count;
      }
    }
    if (best >= 0) scene->cameras[c] = parts[best].scene.cameras[c];
  }
  summary.num_registered = scene->NumRegisteredImages();
  return summary;
}

}  // namespace proj
