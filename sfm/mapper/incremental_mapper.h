// Incremental Structure-from-Motion (Schönberger & Frahm, "Structure-from-Motion Revisited",
// CVPR 2016, simplified): start from a well-conditioned image pair, then repeatedly register
// the image that sees the most triangulated points, triangulate new tracks, refine locally and
// globally by bundle adjustment, and filter outliers, until no image can be added.
#pragma once

#include <string>
#include <vector>

#include "sfm/mapper/mapper_options.h"
#include "sfm/scene.h"
#include "sfm/track_builder.h"
#include "sfm/view_graph.h"

namespace proj {

struct MapperSummary {
  bool success = false;             // a model with at least two images was built
  std::string failure_reason;       // when !success
  int num_registered = 0;
  int num_points = 0;
  ImagePair initial_pair;
  int num_global_ba = 0;
  int num_local_ba = 0;
};

// `scene` holds cameras (with priors) and images with keypoints, nothing registered. Tracks
// index the same images and keypoints. On return the scene holds the model.
MapperSummary RunIncrementalMapper(const IncrementalMapperOptions& options,
                                   const TrackSet& tracks,
                                   const std::vector<VerifiedPair>& verified_pairs, Scene* scene);

}  // namespace proj
