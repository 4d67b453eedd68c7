#include "sfm/app/dense_options.h"

namespace proj::app {

void AddDenseOptions(CLI::App& app, mvs::DenseOptions* options) {
  app.add_option("--dense-max-image-size", options->max_image_size_px,
                 "Largest width or height of the undistorted images depth maps are computed on, px; "
                 "0 = the photos' size (slower: time grows with the pixels)")
      ->capture_default_str();
  app.add_option("--dense-num-sources", options->sources.max_num_sources,
                 "Source images per depth map, the best by shared sparse points with a good "
                 "triangulation angle (1-60 deg) and a similar scale")
      ->capture_default_str();
  app.add_option("--dense-window-radius", options->patch_match.window_radius,
                 "PatchMatch window radius, px: windows of (2 r + 1)^2 pixels, compared by "
                 "bilateral-weighted ZNCC")
      ->capture_default_str();
  app.add_option("--dense-iterations", options->patch_match.num_iterations,
                 "PatchMatch red-black sweeps over each depth map (each updates every pixel once)")
      ->capture_default_str();
  app.add_option("--dense-cache-size", options->cache_size_mb,
                 "Decoded images kept for later depth maps, MiB (the images of the maps being "
                 "computed are held besides)")
      ->capture_default_str();
}

}  // namespace proj::app
