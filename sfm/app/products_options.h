// The --dsm-* options of `sfm products` and `sfm reconstruct --products`, declared once and
// bound to an mvs::MapProductsOptions (defaults and meanings in mvs/map_products.h).
#pragma once

#include <CLI/CLI.hpp>

#include "mvs/map_products.h"

namespace proj::app {

// --dsm-resolution-m, --dsm-fill-limit-m, --dsm-cell-percentile.
void AddProductsOptions(CLI::App& app, mvs::MapProductsOptions* options);

}  // namespace proj::app
