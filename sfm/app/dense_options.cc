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
  app.add_option("--dense-top-k", options->patch_match.top_k_views,
                 "Source images whose matching costs are averaged into a depth hypothesis' cost (the "
                 "best ones, so occluded images drop out)")
      ->capture_default_str();
  app.add_option("--dense-consistent-views", options->filter.min_consistent_views,
                 "Source images whose depth maps must agree with a pixel's depth (forward-backward "
                 "reprojection within 1 px and 1% in depth) for the filter to keep it")
      ->capture_default_str();
  app.add_option("--dense-min-views", options->fusion.min_views,
                 "Images that must see a point, within 1% in depth, for fusion to keep it")
      ->capture_default_str();
  app.add_option("--dense-voxel-size", options->fusion.voxel_size,
                 "Thin the dense cloud to one point per voxel of this edge, in the model's unit "
                 "(metres when georeferenced); 0 = no thinning")
      ->capture_default_str();
  app.add_option("--dense-cache-size", options->cache_size_mb,
                 "Decoded images kept for later depth maps, MiB (the images of the maps being "
                 "computed are held besides)")
      ->capture_default_str();
}

}  // namespace proj::app
