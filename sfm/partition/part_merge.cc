#include "sfm/partition/part_merge.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "core/check.h"
#include "core/statistics.h"
#include "geometry/ransac/estimate_similarity.h"
#include "geometry/solvers/similarity.h"
#include "sfm/mapper/prior_alignment.h"

namespace proj {

void PartMergeOptions::Check() const {
  PROJ_REQUIRE(max_center_error_spacing > 0, "the merge's centre error threshold must be positive");
  PROJ_REQUIRE(max_rotation_error_deg > 0, "the merge's rotation error threshold must be positive");
  PROJ_REQUIRE(min_shared_images >= 3, "parts are merged by at least 3 shared images (got " << min_shared_images << ")");
  PROJ_REQUIRE(min_inlier_share >= 0 && min_inlier_share <= 1, "the merge's inlier share must be in [0, 1]");
  PROJ_REQUIRE(realignment_sweeps >= 0, "the merge's re-alignment sweeps must be >= 0");
}

int PartMergeSummary::NumMerged() const {
  return static_cast<int>(std::count_if(parts.begin(), parts.end(), [](const auto& p) { return p.merged; }));
}

double PartMergeSummary::MedianCenterError() const {
  std::vector<double> errors;
  for (const PartAlignmentRecord& record : parts) {
    if (record.merged && record.num_inliers > 0) errors.push_back(record.median_center_error);
  }
  return errors.empty() ? 0.0 : UpperMedian(errors);
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
  // The inliers by centre and orientation under a similarity; the errors of those agreeing.
  auto agreeing = [&](const Sim3d& merged_from_part, std::vector<double>* center_errors,
                      std::vector<double>* rotation_errors) {
    *aligned = PosesOnly(part);
    TransformScene(merged_from_part, aligned);
    std::vector<int> inliers;
    center_errors->clear();
    rotation_errors->clear();
    for (size_t k = 0; k < shared_local.size(); ++k) {
      const Rigid3d& pose = aligned->images[shared_local[k]].cam_from_world;
      const Rigid3d& reference = merged.images[part.image_ids[shared_local[k]]].cam_from_world;
      const double center_error = (pose.Center() - dst[k]).norm();
      const double rotation_error = AngleDeg(pose.rotation, reference.rotation);
      if (center_error <= threshold && rotation_error <= options.max_rotation_error_deg) {
        inliers.push_back(static_cast<int>(k));
        center_errors->push_back(center_error);
        rotation_errors->push_back(rotation_error);
      }
    }
    return inliers;
  };
  std::vector<double> center_errors, rotation_errors;
  const size_t agreeing_by_centres = agreeing(report.model, &center_errors, &rotation_errors).size();
  // The centres' consensus leaves the rotation about the shared strip's long axis weakly
  // determined (shared images a line or two of a flight wide: 0.01 m across 20 m tilts a part
  // by 0.03 deg, 0.1 m at its far side; along one line, not at all); the shared images'
  // orientations fix it. So the rotation is the chordal mean of the (merged^T * part)
  // rotations of the images whose centres agree (again without those more than
  // max_rotation_error_deg from that mean), then scale and translation from their centres.
  std::vector<int> centre_inliers;
  for (size_t k = 0; k < src.size(); ++k) {
    if ((report.model * src[k] - dst[k]).norm() <= threshold) centre_inliers.push_back(static_cast<int>(k));
  }
  auto part_to_merged_rotation = [&](int k) {
    return Eigen::Matrix3d(merged.images[part.image_ids[shared_local[k]]].cam_from_world.rotation.toRotationMatrix().transpose() *
                           part.scene.images[shared_local[k]].cam_from_world.rotation.toRotationMatrix());
  };
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  for (int round = 0; round < 2; ++round) {
    Eigen::Matrix3d sum = Eigen::Matrix3d::Zero();
    for (int k : centre_inliers) {
      if (round == 0 || AngleDeg(Eigen::Quaterniond(part_to_merged_rotation(k)), Eigen::Quaterniond(rotation)) <=
                            options.max_rotation_error_deg) {
        sum += part_to_merged_rotation(k);
      }
    }
    if (sum.isZero()) break;
    rotation = NearestRotation(sum);
  }
  std::vector<Eigen::Vector3d> inlier_src, inlier_dst;
  for (int k : centre_inliers) {
    inlier_src.push_back(src[k]);
    inlier_dst.push_back(dst[k]);
  }
  Sim3d merged_from_part = report.model;
  Sim3d refined;
  std::vector<double> refined_center_errors, refined_rotation_errors;
  if (EstimateScaleAndTranslation(inlier_src, inlier_dst, Eigen::Quaterniond(rotation), &refined) &&
      agreeing(refined, &refined_center_errors, &refined_rotation_errors).size() >= agreeing_by_centres) {
    merged_from_part = refined;
    center_errors = std::move(refined_center_errors);
    rotation_errors = std::move(refined_rotation_errors);
  } else {
    agreeing(merged_from_part, &center_errors, &rotation_errors);  // `aligned` by that model again
  }
  record->num_inliers = static_cast<int>(center_errors.size());
  record->median_center_error = UpperMedian(center_errors);
  record->median_rotation_error_deg = UpperMedian(rotation_errors);
  record->merged_from_part = merged_from_part;
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
  std::vector<char> pending(parts.size(), 1);
  std::vector<int> merge_order;
  std::vector<Scene> aligned(parts.size());  // a merged part's poses in the merged frame
  std::vector<char> posed(num_images, 0);
  // The merged poses: each image from its core part, else from the part merged first.
  auto pose_images = [&]() {
    std::fill(posed.begin(), posed.end(), 0);
    for (SceneImage& image : scene->images) image.registered = false;
    for (int p : merge_order) {
      const PartModel& part = parts[p];
      for (size_t i = 0; i < part.image_ids.size(); ++i) {
        const int image = part.image_ids[i];
        if (!aligned[p].images[i].registered || (posed[image] && core_part[image] != p)) continue;
        posed[image] = 1;
        scene->images[image].registered = true;
        scene->images[image].cam_from_world = aligned[p].images[i].cam_from_world;
      }
    }
  };
  auto merge = [&](int p, Scene&& poses) {
    aligned[p] = std::move(poses);
    summary.parts[p].merged = true;
    summary.parts[p].failure_reason.clear();
    pending[p] = 0;
    merge_order.push_back(p);
    pose_images();
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
  for (SceneImage& image : scene->images) image.registered = false;
  if (first < 0) return summary;
  merge(first, PosesOnly(parts[first]));
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
      Scene poses;
      if (!AlignPart(options, parts[p], *scene, posed, &summary.parts[p], &poses)) continue;
      merge(p, std::move(poses));
      progressed = true;
      break;
    }
  }
  // A part merged early was aligned by the few images it shared with the parts merged before
  // it (a 200-image flight in 4 parts: a part joined by 3 images, 0.28 deg off, the model 49
  // mm from the truth against 28 mm for one run). Each part is aligned again to all the
  // others, by every image it shares with any of them, a few times over.
  for (int sweep = 0; sweep < options.realignment_sweeps; ++sweep) {
    for (size_t k = 1; k < merge_order.size(); ++k) {
      const int p = merge_order[k];
      // The shared images' poses in the other parts: the image's core part's, else the first
      // merged part's that registered it.
      Scene others;
      others.images.resize(num_images);
      std::vector<char> in_others(num_images, 0);
      for (int q : merge_order) {
        if (q == p) continue;
        for (size_t i = 0; i < parts[q].image_ids.size(); ++i) {
          const int image = parts[q].image_ids[i];
          if (!aligned[q].images[i].registered || (in_others[image] && core_part[image] != q)) continue;
          in_others[image] = 1;
          others.images[image].cam_from_world = aligned[q].images[i].cam_from_world;
        }
      }
      PartAlignmentRecord record = summary.parts[p];
      Scene poses;
      if (AlignPart(options, parts[p], others, in_others, &record, &poses) &&
          record.num_inliers >= summary.parts[p].num_inliers) {
        record.realigned = true;
        summary.parts[p] = record;
        aligned[p] = std::move(poses);
      }
    }
  }
  pose_images();
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
