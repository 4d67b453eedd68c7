// Ground control points (--gcp) applied to a built model, after the mapper and its GPS
// alignment: the GCP file is read and checked against the run's images, its points are
// taken into a local ENU frame around them (their median, ellipsoidal heights as the file
// gives them) and the model is aligned and adjusted to them (sfm/gcp/ground_control.h). On
// success that frame replaces the GPS priors' one (the priors are converted into it and their
// residuals measured against the final model, which they no longer constrain); otherwise
// the model stays as the mapper left it, with a warning saying why.
#pragma once

#include "sfm/gcp/gcp_file.h"
#include "sfm/gcp/ground_control.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// Reads options.gcp_path and checks it against the scene's images (names and sizes): before
// mapping, so that a bad file fails early. Throws InputError naming the file and line.
GcpFile ReadGcpFileForScene(const GroundControlOptions& options, const Scene& scene);

// Georeferences the model of `summary` by the points of `file`. Nothing happens without a
// model.
void ApplyGroundControl(const GroundControlOptions& options, const GcpFile& file, const BundleAdjustmentOptions& ba,
                        MappingStageSummary* summary);

}  // namespace proj
