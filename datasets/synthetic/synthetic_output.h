// Writing rendered synthetic views with their ground truth, in the layout of the Strecha
// datasets (shared by every kind of synthetic scene).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "io/float_raster_file.h"
#include "io/exif.h"
#include "io/image.h"
#include "io/strecha_camera.h"

namespace proj {

// Image name of view `index`: four digits + ".jpg", as in the Strecha datasets.
std::string SyntheticImageName(int index);

// Creates out_dir with its images/, depth/ and gt_dense_cameras/ folders; throws InputError when they
// cannot be written or images/ holds an image other than the first `num_images` names of
// SyntheticImageName, so stale views never mix with new ones.
void PrepareSyntheticOutput(const std::string& out_dir, int num_images);

// Renders view i with render(i) and its true depth with render_depth(i) and writes, in the
// layout of the Strecha datasets:
//   out_dir/images/NNNN.jpg                    the images (JPEG, jpeg_quality)
//   out_dir/depth/NNNN.jpg.bin                 true depth per pixel, 0 for the sky, in
//                                              COLMAP's depth map format (float_raster_file.h)
//   out_dir/images/K.txt                       the first camera's intrinsic matrix
//   out_dir/gt_dense_cameras/NNNN.jpg.camera   ground truth (io/strecha_camera.h)
//   out_dir/gt_cameras.ply                     camera frusta, for viewing
// Files are written atomically. Throws InputError if out_dir cannot be written or
// out_dir/images already holds images this scene would not overwrite (e.g. a longer
// earlier scene), so stale views never mix with new ones.
// `exif` (when given) gives each view's EXIF (GPS, say), written into its JPEG.
void WriteSyntheticViews(const std::vector<StrechaCamera>& cameras,
                         const std::function<Image(int)>& render,
                         const std::function<FloatRaster(int)>& render_depth, int jpeg_quality,
                         const std::string& out_dir,
                         const std::function<ExifData(int)>& exif = nullptr);

}  // namespace proj
