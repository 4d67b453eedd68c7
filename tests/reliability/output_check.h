// What a run of `sfm reconstruct` may leave in its output folder: the model outputs
// (points.ply, cameras.ply, model/*) all complete and parseable, or none of them; a
// report.json that is absent or whole; no temporary files of interrupted atomic writes.
#pragma once

#include <string>

namespace proj::testing {

// "" when `out_dir` is as it should be after a run that built a model (`expect_model`) or
// not; otherwise what is wrong.
std::string CheckOutputs(const std::string& out_dir, bool expect_model);

// Mean focal length of each camera of out_dir/model, as text ("330.2 331.0"); throws
// InputError if the model cannot be read. `min`/`max` receive the extremes.
std::string ModelFocalLengths(const std::string& out_dir, double* min, double* max);

}  // namespace proj::testing
