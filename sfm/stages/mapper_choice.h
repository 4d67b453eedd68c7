// Which mapper builds the model (--mapper), and for auto, the rule the measurements support
// (README "Mappers", CPU, 640x480 synthetic scenes unless said):
//   - nadir flights with GPS: the global mapper is more accurate (150 images: 17.4 mm against
//     the incremental mapper's 40.1 mm; 300 images: 20.7 against 22.5 mm, at ~1.7x the CPU
//     time);
//   - without GPS it is no better (Strecha: within 1-3% either way) and wrong on the object
//     views (300 views, no EXIF: 30 mm against 2.5 mm);
//   - on ordered input it is wrong (the street drive: 5 m).
// So auto is global for unordered input with GPS on most images, incremental otherwise; and a
// global model that fails its own checks (GlobalModelFault) is mapped again incrementally.
#pragma once

#include <string>

#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/scene.h"
#include "sfm/stages/model_quality.h"

namespace proj {

struct ReconstructionOptions;

struct AutoMapperOptions {
  // The global mapper needs GPS priors on at least this share of the images
  double min_gps_share = 0.5;  // in (0, 1]
  int min_images = 0;  // and at least this many images (--mapper-auto-min-images)
  // A global model is mapped again incrementally when it registers fewer than this share of
  // the images the view graph links to each other (its largest connected group) ...
  double min_registered_share = 0.9;  // in [0, 1]
  // ... or when its mean reprojection error exceeds this (both mappers keep observations
  // within the same threshold; a right model is at 0.3-1.3 px), or its quality verdict is
  // not good (model_quality.h: GPS disagreement).
  double max_reprojection_error_px = 2;

  void Check() const;  // throws InputError naming the option
};

// The images are an ordered sequence (KLT tracks, or sequential matching): the frames of a
// video or a drive, where the global mapper is known to fail and keyframes apply.
bool IsOrderedInput(const ReconstructionOptions& options);

struct MapperDecision {
  bool global = false;
  std::string reason;  // one clause for the log and report.json ("GPS on 150 of 150 images, ...")
};

// The mapper for `scene` (its images and position_priors, before mapping): --mapper global or
// incremental as given; auto by the rule above.
MapperDecision ChooseMapper(const ReconstructionOptions& options, const Scene& scene);

// Why a model of the global mapper is not to be kept under --mapper auto ("" when it is):
// no model, fewer registered images than options.min_registered_share of `num_linked_images`
// (the largest connected group of the view graph), a mean reprojection error above
// options.max_reprojection_error_px, or a quality verdict other than good.
std::string GlobalModelFault(const AutoMapperOptions& options, const MapperSummary& mapper,
                             const ModelQuality& quality, int num_linked_images);

}  // namespace proj
