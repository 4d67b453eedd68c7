// The model of a partitioned mapping once its parts' poses are merged (part_merge.h): points
// triangulated again over the whole scene's tracks (a track across a part boundary becomes one
// point), adjusted as a whole, the images no part registered added one by one as the
// incremental mapper adds them, and the incremental mapper's final refinement and alignment to
// the GPS priors. Optionally the merged cameras' centres are held by position priors through
// the completion: the parts' shapes, each from a block small enough to be held well by its
// images, are kept, and the adjustments of the whole fix what joins them.
#pragma once

#include <vector>

#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct MergedModelOptions {
  // Triangulation starts at this multiple of the mapper's reprojection threshold and tightens
  // by factor_step after each global adjustment (TriangulatePlacedCameras): the parts agree on
  // the shared images' poses to a fraction of a pixel, but not exactly.
  double initial_reproj_error_factor = 4;
  double reproj_error_factor_step = 4;
  // The merged centres' priors have this multiple of the merge's disagreement (the median
  // over parts of their shared images' centre errors) as standard deviation; 0: not held.
  // Held, a 200-image flight in 4 parts was 19 mm from the truth against 52 mm completed freely
  // when the merged model's tracks were triangulated by dropping their worst observations; with
  // their largest agreeing subsets (TrackTriangulation) the free completion is the more
  // accurate (PINHOLE 16.7 mm against 24.8 held, one run 21.2), and at 1,000 images holding
  // hurt either way (PINHOLE 28.5 mm against 25.0); with lens distortion the parts, which hold
  // it at zero, are bent, and holding their shape doubles the error (k1 = -0.05: 3.4 m
  // against 1.6 m).
  double shape_prior_factor = 0;
};

// `scene` holds the merged poses and intrinsics (registered images, no points); tracks and
// pairs are the whole scene's; `merge_center_error` is the merge's disagreement (0: none
// measured, the centres are not held). On return the scene holds the model, with its own
// position priors as they were; the summary's times are those of this completion alone.
MapperSummary CompleteMergedModel(const IncrementalMapperOptions& options, const MergedModelOptions& merged,
                                  double merge_center_error, const TrackSet& tracks,
                                  const std::vector<VerifiedPair>& pairs, Scene* scene);

}  // namespace proj
