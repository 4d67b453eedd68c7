// The model of a partitioned mapping once its parts' poses are merged (part_merge.h): points
// triangulated again over the whole scene's tracks (a track across a part boundary becomes one
// point), adjusted as a whole, the images no part registered added one by one as the
// incremental mapper adds them, and the incremental mapper's final refinement and alignment to
// the GPS priors.
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
};

// `scene` holds the merged poses and intrinsics (registered images, no points); tracks and
// pairs are the whole scene's. On return the scene holds the model; the summary's times are
// those of this completion alone.
MapperSummary CompleteMergedModel(const IncrementalMapperOptions& options, const MergedModelOptions& merged,
                                  const TrackSet& tracks, const std::vector<VerifiedPair>& pairs, Scene* scene);

}  // namespace proj
