#include "sfm/app/products_options.h"

namespace proj::app {

void AddProductsOptions(CLI::App& app, mvs::MapProductsOptions* options) {
  app.add_option("--dsm-resolution-m", options->resolution_m,
                 "Cell size of the surface model (and orthophoto), metres; 0 = twice the survey's ground "
                 "sample distance at the dense image size (the median over the images of the depth of their "
                 "sparse points over the focal length, rounded to two digits): at one GSD many cells would "
                 "hold one point or none, at two each gathers about four pixels' points")
      ->capture_default_str();
  app.add_option("--dsm-fill-limit-m", options->fill_limit_m,
                 "Holes in the surface model (cells without points, enclosed by cells with) are "
                 "interpolated (Laplace: smooth, planes exact) when none of their cells is farther than "
                 "this from a cell with points, so holes up to about twice as wide; larger holes and "
                 "unseen margins stay nodata; 0 = no filling")
      ->capture_default_str();
  app.add_option("--dsm-cell-percentile", options->cell_percentile,
                 "A cell's height: this percentile of the heights of its points (100 = the highest, "
                 "which one stray point can lift; 90 keeps roofs and treetops and ignores a few strays)")
      ->capture_default_str();
  app.add_flag("!--no-orthophoto", options->orthophoto,
               "Make no orthophoto (orthophoto.tif: each cell coloured from the image that sees it on the "
               "surface model most nadir and closest, z-buffered, so roofs and walls stand where they are; "
               "exposure steps blended across the seams)");
}

}  // namespace proj::app
