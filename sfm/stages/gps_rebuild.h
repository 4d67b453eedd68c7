// Mapping the view graph into a model aligned to its GPS, and mapping it once more, with the
// GPS as a constraint from the start, when the first model disagrees with the GPS
// (model_quality.h: GpsAgreement::Consistent). Issue 26: a sparse survey (28 photos, weak
// overlap, a rolling shutter) came out of the incremental mapper rolled and folded, a median
// 29 m from its GPS; the global mapper with every fix kept (--gps-max-error-m 100) and held
// tightly (--gps-sigma-m 0.5) gave 28/28 images at 3.3 m for a reprojection error of 1.24 px
// against 1.19.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"
#include "sfm/scene/view_graph.h"
#include "sfm/stages/model_quality.h"
#include "sfm/stages/reconstruction_options.h"

namespace proj {

// One mapping of the view graph by the mapper `options` choose (ChooseMapper), then aligned to the GPS
// priors (GeoreferenceModel). `scene` as RunIncrementalMapper takes it; on return the model.
MapperSummary MapAndGeoreference(const ReconstructionOptions& options, const TrackSet& tracks,
                                 const std::vector<VerifiedPair>& pairs, Scene* scene);

// The second attempt's tuning (the user's combination above).
struct GpsRebuildOptions {
  double max_error_m = 100;  // the alignments' inlier threshold: at least this
  double sigma_m = 0.5;      // every fix's standard deviation in the adjustments: at most this
  // The second model is kept only if its mean reprojection error is at most this multiple of
  // the first's (at least 0.1 px): cameras pulled onto wrong fixes (a geotagging clock offset)
  // agree with the GPS at the price of fitting their images worse.
  double max_reprojection_increase = 1.5;
  double min_reprojection_error_px = 0.1;  // the first's error counts as at least this
  // And it must register at least this share of the images the first registered: a partial
  // model is nearer the GPS for the images it leaves out.
  double min_registered_share = 0.9;
};

// Whether the second model `rebuilt` is better than the `first` (as RebuildWithGps decides).
bool RebuildIsBetter(const GpsRebuildOptions& rebuild, const ModelQuality& rebuilt, const ModelQuality& first);

struct GpsRebuild {
  Scene scene;  // the model, its priors as the first attempt had them
  MapperSummary mapper;
  std::string mapper_name;
  ModelQuality quality;
};

// Maps `unmapped` (the scene before the first attempt) with the GPS as a constraint from the
// start: the global mapper (all cameras at once: no early fold for later images to follow),
// then, when that model is no better than the first, the incremental mapper (nadir views of
// flat ground give the global one planar pairs only, and few images); in both the first
// alignment keeps every fix within max_error_m and the adjustments hold each to sigma_m.
// Returns the first of these models that is better than the first attempt
// (RebuildIsBetter: a better verdict, or the same one nearer the GPS, with about as many
// images and a reprojection error within max_reprojection_increase); nullopt otherwise. Logs
// why it runs and what came out.
std::optional<GpsRebuild> RebuildWithGps(const ReconstructionOptions& options, const TrackSet& tracks,
                                         const std::vector<VerifiedPair>& pairs, const Scene& unmapped,
                                         const ModelQuality& first,
                                         const GpsRebuildOptions& rebuild = GpsRebuildOptions());

}  // namespace proj
