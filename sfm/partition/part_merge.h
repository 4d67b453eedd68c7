// The models of a partition's parts (image_partition.h) brought into one frame by the images
// they share: each part's similarity to the merged model from the camera centres of the
// shared images (RANSAC + Umeyama, geometry/ransac/estimate_similarity.h; an image counts when
// its centre and its orientation agree), parts joined largest first, each next the one with
// most images registered in the merged model; then each part aligned again by all the images
// it shares with the others (one joined early saw only its first neighbours). Only poses and intrinsics are merged: the
// points are triangulated again over the whole scene's tracks afterwards
// (partitioned_mapping.h), so a track crossing a part boundary becomes one point.
#pragma once

#include <string>
#include <vector>

#include "geometry/sim3.h"
#include "sfm/scene/scene.h"

namespace proj {

// One part's model: scene.images[i] is image image_ids[i] of the whole scene; scene.cameras
// are the whole scene's cameras (same ids), as the part refined them.
struct PartModel {
  std::vector<int> image_ids;
  Scene scene;
};

struct PartMergeOptions {
  // A shared image agrees with an alignment when its aligned centre is within this share of
  // the shared images' median spacing (distance to the nearest other shared centre) and its
  // orientation within max_rotation_error_deg.
  double max_center_error_spacing = 0.2;  // > 0
  double max_rotation_error_deg = 3.0;    // > 0
  int min_shared_images = 3;              // registered in both; >= 3
  double min_inlier_share = 0.5;          // of the shared images; in [0, 1]
  int realignment_sweeps = 2;             // passes aligning every part again to all others; >= 0
  uint64_t seed = 0;

  void Check() const;  // throws InputError naming the field
};

struct PartAlignmentRecord {
  int part = 0;
  bool merged = false;
  std::string failure_reason;  // when !merged
  int num_registered = 0;      // in the part's model
  int num_shared = 0;          // registered both there and in the other parts it was aligned to
  bool realigned = false;      // aligned again to all the other parts
  int num_inliers = 0;
  double median_center_error = 0;  // of the inliers, in the merged model's units
  double median_rotation_error_deg = 0;
  Sim3d merged_from_part;
};

struct PartMergeSummary {
  int num_registered = 0;              // images with a pose after the merge
  std::vector<PartAlignmentRecord> parts;  // by part index
  int NumMerged() const;
  // The median over the parts merged by shared images of their median centre error; 0 when
  // none was.
  double MedianCenterError() const;
};

// Writes the merged poses (images of merged parts registered; an image in several parts takes
// the pose of its core part, `core_part` per image, else of the part merged first) and
// intrinsics (per camera from the merged part registering most of its images) into `scene`,
// which holds the whole scene's images, none registered, and no points. A part that cannot be
// aligned (too few shared images, no consensus) is left out and says why.
PartMergeSummary MergePartPoses(const PartMergeOptions& options, const std::vector<PartModel>& parts,
                                const std::vector<int>& core_part, Scene* scene);

}  // namespace proj
