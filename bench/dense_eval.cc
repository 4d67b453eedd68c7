#include "bench/dense_eval.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "core/check.h"
#include "core/parallel_for.h"
#include "io/atomic_file.h"
#include "sfm/reconstruction_io/colmap_model.h"
#include "sfm/undistort/undistorted_camera.h"

namespace proj {

std::map<std::string, std::string> ListFilesWithSuffix(const std::string& dir,
                                                       const std::string& suffix) {
  namespace fs = std::filesystem;
  std::error_code error;
  PROJ_REQUIRE(fs::is_directory(dir, error), "folder '" << dir << "' not found");
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.size() <= suffix.size() ||
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    files[file.substr(0, file.size() - suffix.size())] = entry.path().string();
  }
  return files;
}

void TextureOptions::Check() const {
  PROJ_REQUIRE(window_radius_px >= 1, "texture window radius must be >= 1 px");
  PROJ_REQUIRE(min_std_dev >= 0, "texture threshold must be >= 0 grey levels");
}

std::vector<uint8_t> TexturedPixels(const Image& image, const TextureOptions& options) {
  options.Check();
  const int w = image.width, h = image.height;
  // Integral images of the grey level and its square, (w + 1) x (h + 1).
  std::vector<double> sum(static_cast<size_t>(w + 1) * (h + 1), 0.0), sum2(sum.size(), 0.0);
  const auto at = [w](int x, int y) { return static_cast<size_t>(y) * (w + 1) + x; };
  for (int y = 0; y < h; ++y) {
    double row = 0, row2 = 0;
    for (int x = 0; x < w; ++x) {
      const uint8_t* p = image.pixel(x, y);
      const double g = image.channels >= 3 ? 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2] : p[0];
      row += g;
      row2 += g * g;
      sum[at(x + 1, y + 1)] = sum[at(x + 1, y)] + row;
      sum2[at(x + 1, y + 1)] = sum2[at(x + 1, y)] + row2;
    }
  }
  const int r = options.window_radius_px;
  const double min_variance = options.min_std_dev * options.min_std_dev;
  std::vector<uint8_t> textured(static_cast<size_t>(w) * h, 0);
  for (int y = 0; y < h; ++y) {
    const int y0 = std::max(0, y - r), y1 = std::min(h, y + r + 1);
    for (int x = 0; x < w; ++x) {
      const int x0 = std::max(0, x - r), x1 = std::min(w, x + r + 1);
      const double n = static_cast<double>(x1 - x0) * (y1 - y0);
      const double s = sum[at(x1, y1)] - sum[at(x0, y1)] - sum[at(x1, y0)] + sum[at(x0, y0)];
      const double s2 = sum2[at(x1, y1)] - sum2[at(x0, y1)] - sum2[at(x1, y0)] + sum2[at(x0, y0)];
      textured[static_cast<size_t>(y) * w + x] = s2 / n - (s / n) * (s / n) >= min_variance;
    }
  }
  return textured;
}

DepthMapCorrespondence DepthMapCorrespondence::Scaled(int estimated_width, int estimated_height,
                                                      int true_width, int true_height) {
  DepthMapCorrespondence c;
  c.estimated_width_ = estimated_width;
  c.estimated_height_ = estimated_height;
  c.true_width_ = true_width;
  c.true_height_ = true_height;
  return c;
}

DepthMapCorrespondence DepthMapCorrespondence::ThroughCamera(const Camera& camera,
                                                             int estimated_width,
                                                             int estimated_height, int true_width,
                                                             int true_height) {
  DepthMapCorrespondence c = Scaled(estimated_width, estimated_height, true_width, true_height);
  c.through_camera_ = true;
  c.camera_ = camera;
  // The undistorted camera at full size, or shrunk as --dense-max-image-size does; when
  // neither has the map's size (another resizing rule), the full one scaled to it.
  c.pinhole_ = UndistortCamera(camera, {});
  if (c.pinhole_.width != estimated_width || c.pinhole_.height != estimated_height) {
    UndistortCameraOptions shrunk;
    shrunk.max_image_size_px = std::max(estimated_width, estimated_height);
    const Camera resized = UndistortCamera(camera, shrunk);
    if (resized.width == estimated_width && resized.height == estimated_height) {
      c.pinhole_ = resized;
    } else {
      const double sx = static_cast<double>(estimated_width) / c.pinhole_.width;
      const double sy = static_cast<double>(estimated_height) / c.pinhole_.height;
      c.pinhole_.params = {c.pinhole_.params[0] * sx, c.pinhole_.params[1] * sy,
                           c.pinhole_.params[2] * sx, c.pinhole_.params[3] * sy};
      c.pinhole_.width = estimated_width;
      c.pinhole_.height = estimated_height;
    }
  }
  return c;
}

namespace {

std::optional<Eigen::Vector2i> PixelAt(const Eigen::Vector2d& uv, int width, int height) {
  const int x = static_cast<int>(std::floor(uv.x())), y = static_cast<int>(std::floor(uv.y()));
  if (!(uv.allFinite()) || x < 0 || y < 0 || x >= width || y >= height) return std::nullopt;
  return Eigen::Vector2i(x, y);
}

}  // namespace

std::optional<Eigen::Vector2i> DepthMapCorrespondence::TrueFromEstimated(int x, int y) const {
  Eigen::Vector2d uv(x + 0.5, y + 0.5);
  if (through_camera_) {
    uv = DistortPixel(pinhole_, camera_, uv);
    uv = uv.cwiseProduct(Eigen::Vector2d(static_cast<double>(true_width_) / camera_.width,
                                         static_cast<double>(true_height_) / camera_.height));
  } else {
    uv = uv.cwiseProduct(Eigen::Vector2d(static_cast<double>(true_width_) / estimated_width_,
                                         static_cast<double>(true_height_) / estimated_height_));
  }
  return PixelAt(uv, true_width_, true_height_);
}

std::optional<Eigen::Vector2i> DepthMapCorrespondence::EstimatedFromTrue(int x, int y) const {
  Eigen::Vector2d uv(x + 0.5, y + 0.5);
  if (through_camera_) {
    uv = uv.cwiseProduct(Eigen::Vector2d(static_cast<double>(camera_.width) / true_width_,
                                         static_cast<double>(camera_.height) / true_height_));
    uv = UndistortPixel(camera_, pinhole_, uv);
  } else {
    uv = uv.cwiseProduct(Eigen::Vector2d(static_cast<double>(estimated_width_) / true_width_,
                                         static_cast<double>(estimated_height_) / true_height_));
  }
  return PixelAt(uv, estimated_width_, estimated_height_);
}

const Camera* AlignedModel::CameraOf(const std::string& image_name) const {
  for (const SceneImage& image : model.images) {
    if (image.name == image_name && image.registered) return &model.cameras.at(image.camera_id);
  }
  return nullptr;
}

AlignedModel AlignModelToTruth(const std::string& model_dir, const std::string& gt_dir) {
  AlignedModel aligned;
  aligned.model = ReadColmapModel(model_dir);
  aligned.evaluation = EvaluateAgainstGroundTruth(aligned.model, gt_dir);
  return aligned;
}

std::vector<double> NearestDistances(const PointKdTree& tree,
                                     const std::vector<Eigen::Vector3d>& queries,
                                     double max_distance, int num_threads,
                                     std::vector<int>* indices) {
  std::vector<double> distances(queries.size(), std::numeric_limits<double>::infinity());
  if (indices != nullptr) indices->assign(queries.size(), -1);
  constexpr size_t kChunk = 4096;  // queries per work item
  const int num_chunks = static_cast<int>((queries.size() + kChunk - 1) / kChunk);
  ParallelFor(0, num_chunks, num_threads, [&](int chunk, int) {
    const size_t end = std::min(queries.size(), (chunk + 1) * kChunk);
    for (size_t i = chunk * kChunk; i < end; ++i) {
      const std::vector<int> nearest = tree.Nearest(queries[i], 1, max_distance);
      if (nearest.empty()) continue;
      distances[i] = (tree.point(nearest[0]) - queries[i]).norm();
      if (indices != nullptr) (*indices)[i] = nearest[0];
    }
  });
  return distances;
}

double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const size_t k = std::min(values.size() - 1, static_cast<size_t>(q * values.size()));
  std::nth_element(values.begin(), values.begin() + k, values.end());
  return values[k];
}

double Share(double a, double b) { return b > 0 ? a / b : 0; }

std::string JsonNumber(double value, int digits) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", digits, value);
  return text;
}

void WriteTextFile(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  WriteFileAtomically(path, [&](std::ostream& out) { out << text; });
}

}  // namespace proj
