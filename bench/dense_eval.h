// Shared pieces of the dense-reconstruction benchmarks (bench/dense_depth_accuracy.cc,
// bench/dense_cloud_accuracy.cc; methods in bench/RESULTS-dense.md): which pixels of a
// synthetic image count as textured, how a pixel of an estimated depth map finds its pixel in
// the true depth map, how a reconstruction is put in the ground truth's frame,
// nearest-neighbour distances (geometry/spatial/point_kd_tree.h, exact), and small statistics
// and JSON helpers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera.h"
#include "geometry/spatial/point_kd_tree.h"
#include "io/image.h"
#include "sfm/scene/evaluation.h"

namespace proj {

// Files DIR/NAME + suffix by NAME (e.g. "0000.jpg" for "0000.jpg.photometric.bin"), sorted.
// InputError when DIR is not a folder.
std::map<std::string, std::string> ListFilesWithSuffix(const std::string& dir,
                                                       const std::string& suffix);

// A pixel is textured when the standard deviation of the grey level (0.299 R + 0.587 G +
// 0.114 B, 0-255) over the (2 r + 1)^2 window around it (clipped at the image's border) is at
// least `min_std_dev`: where matching can work at all. The default rejects JPEG noise on flat
// shading (about 0.5-1 grey level) and keeps any visible pattern.
struct TextureOptions {
  int window_radius_px = 2;   // 5x5 window
  double min_std_dev = 2.0;   // grey levels
  void Check() const;         // InputError naming the field
};

// One byte per pixel (row-major): 1 where textured.
std::vector<uint8_t> TexturedPixels(const Image& image, const TextureOptions& options);

// Where a pixel of an estimated depth map (ESTIMATED grid, possibly smaller than the photo
// when --dense-max-image-size shrank it, and undistorted) lies in the true depth map (TRUE
// grid, the rendered photo's pixels) and back; "nearest": the pixel whose square holds the
// mapped centre. Pixel centres are at (x + 0.5, y + 0.5).
class DepthMapCorrespondence {
 public:
  // Scaling only: the centre of ESTIMATED pixel (x, y) maps to ((x + 0.5) W / w,
  // (y + 0.5) H / h). Exact when the estimated map is the photo resized (no undistortion).
  static DepthMapCorrespondence Scaled(int estimated_width, int estimated_height, int true_width,
                                       int true_height);
  // Through the reconstruction's camera of the photo (`camera`, e.g. SIMPLE_RADIAL, of the
  // photo's size): the estimated map's PINHOLE camera is the one sfm undistort makes
  // (sfm/undistort/undistorted_camera.h) of that size, and a pixel maps to the photo pixel on
  // the same ray (DistortPixel), i.e. the photo pixel PatchMatch actually matched.
  static DepthMapCorrespondence ThroughCamera(const Camera& camera, int estimated_width,
                                              int estimated_height, int true_width,
                                              int true_height);

  // The pixel of the other grid, or std::nullopt when the mapped centre falls outside it.
  std::optional<Eigen::Vector2i> TrueFromEstimated(int x, int y) const;
  std::optional<Eigen::Vector2i> EstimatedFromTrue(int x, int y) const;
  bool through_camera() const { return through_camera_; }

 private:
  DepthMapCorrespondence() = default;
  int estimated_width_ = 0, estimated_height_ = 0, true_width_ = 0, true_height_ = 0;
  bool through_camera_ = false;
  Camera camera_;   // the photo's, when through_camera_
  Camera pinhole_;  // the estimated map's, when through_camera_
};

// A reconstruction in the ground truth's frame: `sfm evaluate`'s alignment (Umeyama
// similarity of the registered camera centres to the true ones, sfm/scene/evaluation.h).
struct AlignedModel {
  Scene model;
  PoseEvaluation evaluation;  // evaluation.true_from_model maps model points to truth
  const Camera* CameraOf(const std::string& image_name) const;  // nullptr: not registered
};
// MODEL_DIR: COLMAP model (text or binary); GT_DIR: NAME.camera files (Strecha format).
AlignedModel AlignModelToTruth(const std::string& model_dir, const std::string& gt_dir);

// For each query, the distance to its nearest point in `tree` no farther than `max_distance`
// (infinity when none) and, when `indices` is given, that point's index (-1 when none); on
// `num_threads` threads (<= 0: all).
std::vector<double> NearestDistances(const PointKdTree& tree,
                                     const std::vector<Eigen::Vector3d>& queries,
                                     double max_distance, int num_threads,
                                     std::vector<int>* indices = nullptr);

// The q-quantile (0..1, nearest rank) of `values`; 0 for none.
double Quantile(std::vector<double> values, double q);
// Share a / b, 0 when b is 0.
double Share(double a, double b);
// A double as a JSON number (null when not finite), `digits` significant digits.
std::string JsonNumber(double value, int digits = 6);
// Writes `text` to `path` (atomically) unless path is empty.
void WriteTextFile(const std::string& path, const std::string& text);

}  // namespace proj
