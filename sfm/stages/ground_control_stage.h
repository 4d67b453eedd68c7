// Ground control points (--gcp) applied to a built model, after the mapper and its GPS
// alignment: the GCP file is read and checked against the run's images, its points are
// taken into a local ENU frame around them (their median, ellipsoidal heights as the file
// gives them) and the model is aligned and adjusted to them (sfm/gcp/ground_control.h). On
// success that frame replaces the GPS priors' one (the priors are converted into it and their
// residuals measured against the final model, which they no longer constrain); otherwise
// the model stays as the mapper left it, with a warning saying why.
#pragma once

#include "sfm/gcp/ground_control.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// Nothing happens without options.gcp_path or without a model. Throws InputError (naming
// the file and line) for a GCP file that does not fit the run's images.
void ApplyGroundControl(const GroundControlOptions& options, const BundleAdjustmentOptions& ba,
                        MappingStageSummary* summary);

}  // namespace proj
