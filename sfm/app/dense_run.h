// The dense stage on a model written by sfm reconstruct (OUT/model), as `sfm dense` runs it
// and `sfm products` when the dense cloud is missing.
#pragma once

#include <optional>
#include <string>

#include "geometry/geodesy/local_enu_frame.h"
#include "mvs/dense_options.h"
#include "mvs/dense_summary.h"
#include "sfm/image_source/image_source.h"
#include "sfm/scene/scene.h"

namespace proj::app {

// The georeference of the run that wrote the model (OUT/georeference.json beside OUT/model),
// so that products of the model are in the same CRS and heights as the sparse points.las;
// none when the model was not georeferenced or did not come from sfm reconstruct.
std::optional<EnuFrame> GeoreferenceOfModel(const std::string& model_dir);

// mvs::ReconstructDense into OUT_DIR/dense, then its points.las (when the model is
// georeferenced), report.json and report.html. Throws as mvs::ReconstructDense.
mvs::DenseSummary DensifyModel(const Scene& scene, const ImageSource& images, const std::string& model_dir,
                               const std::string& out_dir, const mvs::DenseOptions& options);

}  // namespace proj::app
