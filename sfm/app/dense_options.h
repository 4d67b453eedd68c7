// The --dense-* options of `sfm dense` and `sfm reconstruct --dense`, declared once and bound
// to an mvs::DenseOptions (defaults and meanings in mvs/dense_options.h).
#pragma once

#include <CLI/CLI.hpp>

#include "mvs/dense_options.h"

namespace proj::app {

// --dense-max-image-size, --dense-num-sources, --dense-window-radius, --dense-iterations,
// --dense-cache-size.
void AddDenseOptions(CLI::App& app, mvs::DenseOptions* options);

}  // namespace proj::app
