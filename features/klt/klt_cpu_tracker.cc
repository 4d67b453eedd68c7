#include "features/klt/klt_cpu_tracker.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include "core/check.h"
#include "core/parallel_for.h"
#include "features/klt/klt_affine_refiner.h"

namespace proj {
namespace {

// OpenCV's minEigThreshold uses 8-bit intensities and unnormalised Scharr derivatives
// (32 x the central difference) divided by 2^20: lambda_cv = lambda * 255^2 / 1024.
constexpr double kOpenCvEigenScale = 255.0 * 255.0 / 1024.0;

cv::Mat FloatView(const GrayImage& image) {
  return cv::Mat(image.height, image.width, CV_32F, const_cast<float*>(image.pixels.data()));
}

cv::Mat ToEightBit(const GrayImage& image) {
  cv::Mat eight_bit;
  FloatView(image).convertTo(eight_bit, CV_8U, 255.0, 0.0);  // rounds and saturates
  return eight_bit;
}

void CheckImage(const GrayImage& image, const KltOptions& options) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0 &&
                   image.pixels.size() == static_cast<size_t>(image.width) * image.height,
               "KLT: image has " << image.pixels.size() << " pixels, expected " << image.width
                                 << "x" << image.height);
  PROJ_REQUIRE(image.width >= 2 * options.window_size && image.height >= 2 * options.window_size,
               "KLT: image " << image.width << "x" << image.height
                             << " is too small for the tracking window " << options.window_size);
}

class KltCpuTracker final : public KltTracker {
 public:
  explicit KltCpuTracker(const KltOptions& options) : options_(options) { options_.Check(); }

  const std::vector<KltFeature>& ProcessFrame(const GrayImage& frame) override {
    CheckImage(frame, options_);
    if (frame_index_ == 0) {
      width_ = frame.width;
      height_ = frame.height;
    }
    PROJ_REQUIRE(frame.width == width_ && frame.height == height_,
                 "KLT: frame " << frame_index_ << " is " << frame.width << "x" << frame.height
                               << " but the sequence started with " << width_ << "x" << height_);
    std::vector<cv::Mat> pyramid = BuildPyramid(frame);
    if (frame_index_ > 0 && !points_.empty()) {
      KltTrackResult result = Track(previous_pyramid_, pyramid, points_);
      const bool refine = options_.affine_refinement;
      if (refine) {
        ParallelFor(0, static_cast<int>(points_.size()), 0, [&](int i, int /*worker*/) {
          if (result.status[i] != KltStatus::kTracked) return;
          const KltAffineOutcome refined = RefineKltTrack(frame, result.points[i], options_, &affine_[i]);
          result.status[i] = refined.status;
          result.points[i] = refined.point;
        });
      }
      size_t kept = 0;
      for (size_t i = 0; i < points_.size(); ++i) {
        if (result.status[i] != KltStatus::kTracked) continue;
        if (refine && kept != i) affine_[kept] = std::move(affine_[i]);
        points_[kept] = result.points[i];
        ids_[kept] = ids_[i];
        ++kept;
      }
      points_.resize(kept);
      ids_.resize(kept);
      if (refine) affine_.resize(kept);
    }
    ++frames_since_selection_;
    const int n = options_.max_features;
    const int count = static_cast<int>(points_.size());
    if (frame_index_ == 0 || frames_since_selection_ >= options_.reselect_interval_frames ||
        count < options_.reselect_min_fraction * n) {
      frames_since_selection_ = 0;
      if (count < n) {
        for (const KltCorner& corner : Select(frame, n - count, points_)) {
          points_.push_back(KltPoint{corner.x, corner.y});
          ids_.push_back(next_id_++);
          if (options_.affine_refinement) {
            affine_.push_back(CaptureKltTemplate(frame, points_.back(), options_.window_size));
          }
        }
      }
    }
    features_.resize(points_.size());
    for (size_t i = 0; i < points_.size(); ++i) {
      features_[i] = KltFeature{ids_[i], points_[i].x, points_[i].y};
    }
    previous_pyramid_ = std::move(pyramid);
    ++frame_index_;
    return features_;
  }

  // OpenCV tracks 8-bit images but selects corners on float ones: the float frame serves both.
  const std::vector<KltFeature>& ProcessFrame(const KltFrame8& frame) override {
    ToFloatFrame(frame, &frame_buffer_);
    return ProcessFrame(frame_buffer_);
  }

  void Reset() override {
    previous_pyramid_.clear();
    points_.clear();
    affine_.clear();
    ids_.clear();
    features_.clear();
    next_id_ = 0;
    frame_index_ = 0;
    frames_since_selection_ = 0;
  }

  std::vector<KltCorner> SelectCorners(const GrayImage& image, int max_count,
                                       const std::vector<KltPoint>& existing) override {
    CheckImage(image, options_);
    PROJ_REQUIRE(max_count >= 0, "KLT: max_count must be >= 0");
    Reset();
    return Select(image, max_count, existing);
  }

  KltTrackResult TrackPoints(const GrayImage& from, const GrayImage& to,
                             const std::vector<KltPoint>& points) override {
    CheckImage(from, options_);
    CheckImage(to, options_);
    PROJ_REQUIRE(from.width == to.width && from.height == to.height,
                 "KLT: images to track between differ in size (" << from.width << "x" << from.height
                                                                << " vs " << to.width << "x" << to.height << ")");
    Reset();
    return Track(BuildPyramid(from), BuildPyramid(to), points);
  }

  std::string Description() const override { return "klt (cpu: opencv)"; }

 private:
  std::vector<cv::Mat> BuildPyramid(const GrayImage& image) const {
    std::vector<cv::Mat> pyramid;
    cv::buildOpticalFlowPyramid(ToEightBit(image), pyramid,
                                cv::Size(options_.window_size, options_.window_size),
                                options_.num_levels - 1, true);
    return pyramid;
  }

  // Lucas-Kanade of points given in the project convention (OpenCV puts pixel centres at
  // integers), then the same checks as the GPU kernel, in the same order.
  KltTrackResult Track(const std::vector<cv::Mat>& from, const std::vector<cv::Mat>& to,
                       const std::vector<KltPoint>& points) const {
    const int n = static_cast<int>(points.size());
    KltTrackResult result;
    result.points.resize(n);
    result.status.assign(n, KltStatus::kTracked);
    result.residual.assign(n, 0.0f);
    result.forward_backward_px.assign(n, -1.0f);
    if (n == 0) return result;
    std::vector<cv::Point2f> start(n);
    for (int i = 0; i < n; ++i) start[i] = cv::Point2f(points[i].x - 0.5f, points[i].y - 0.5f);
    const cv::Size window(options_.window_size, options_.window_size);
    const cv::TermCriteria criteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS,
                                    options_.max_iterations, options_.epsilon_px);
    const double min_eigen = options_.min_eigenvalue * kOpenCvEigenScale;
    const int max_level = options_.num_levels - 1;
    std::vector<cv::Point2f> tracked;
    std::vector<uchar> found;
    std::vector<float> error;
    cv::calcOpticalFlowPyrLK(from, to, start, tracked, found, error, window, max_level, criteria, 0,
                             min_eigen);
    const float half = static_cast<float>(options_.half_window());
    std::vector<int> check_back;
    std::vector<cv::Point2f> back_start;
    for (int i = 0; i < n; ++i) {
      const cv::Point2f& p = tracked[i];
      result.points[i] = KltPoint{p.x + 0.5f, p.y + 0.5f};
      if (!found[i] || !std::isfinite(p.x) || !std::isfinite(p.y)) {
        result.status[i] = KltStatus::kLost;
        continue;
      }
      result.residual[i] = error[i] / 255.0f;
      if (!(p.x - half >= 0 && p.y - half >= 0 && p.x + half <= width_of(from) - 1 &&
            p.y + half <= height_of(from) - 1)) {
        result.status[i] = KltStatus::kOutOfImage;
      } else if (options_.max_residual > 0 && result.residual[i] > options_.max_residual) {
        result.status[i] = KltStatus::kLargeResidual;
      } else if (options_.max_forward_backward_px > 0) {
        check_back.push_back(i);
        back_start.push_back(p);
      }
    }
    if (check_back.empty()) return result;
    std::vector<cv::Point2f> back;
    cv::calcOpticalFlowPyrLK(to, from, back_start, back, found, error, window, max_level, criteria, 0,
                             min_eigen);
    for (size_t k = 0; k < check_back.size(); ++k) {
      const int i = check_back[k];
      const float distance = static_cast<float>(cv::norm(back[k] - start[i]));
      result.forward_backward_px[i] = std::isfinite(distance) ? distance : -1.0f;
      if (!found[k] || !(distance <= options_.max_forward_backward_px)) {
        result.status[i] = KltStatus::kForwardBackward;
      }
    }
    return result;
  }

  static int width_of(const std::vector<cv::Mat>& pyramid) { return pyramid[0].cols; }
  static int height_of(const std::vector<cv::Mat>& pyramid) { return pyramid[0].rows; }

  // goodFeaturesToTrack on the float image, restricted by a mask to the interior (half window
  // from the border) and away from `existing` (pixels closer than min_distance_px).
  std::vector<KltCorner> Select(const GrayImage& image, int max_count,
                                const std::vector<KltPoint>& existing) const {
    if (max_count <= 0) return {};
    const int border = options_.half_window();
    cv::Mat mask(image.height, image.width, CV_8U, cv::Scalar(0));
    mask(cv::Rect(border, border, image.width - 2 * border, image.height - 2 * border)).setTo(255);
    const double radius = options_.min_distance_px;
    if (radius > 0) {
      for (const KltPoint& point : existing) {
        const double px = point.x - 0.5;
        const double py = point.y - 0.5;
        const int x0 = std::max(0, static_cast<int>(std::ceil(px - radius)));
        const int x1 = std::min(image.width - 1, static_cast<int>(std::floor(px + radius)));
        const int y0 = std::max(0, static_cast<int>(std::ceil(py - radius)));
        const int y1 = std::min(image.height - 1, static_cast<int>(std::floor(py + radius)));
        for (int y = y0; y <= y1; ++y) {
          for (int x = x0; x <= x1; ++x) {
            if ((x - px) * (x - px) + (y - py) * (y - py) < radius * radius) mask.at<uchar>(y, x) = 0;
          }
        }
      }
    }
    std::vector<cv::Point2f> corners;
    std::vector<float> quality;
    cv::goodFeaturesToTrack(FloatView(image), corners, max_count, options_.quality_level,
                            options_.min_distance_px, mask, quality, options_.corner_block_size,
                            3, false, 0.04);
    std::vector<KltCorner> result(corners.size());
    for (size_t i = 0; i < corners.size(); ++i) {
      result[i] = KltCorner{corners[i].x + 0.5f, corners[i].y + 0.5f,
                            i < quality.size() ? quality[i] : 0.0f};
    }
    return result;
  }

  KltOptions options_;
  GrayImage frame_buffer_;  // 8-bit frames as float
  std::vector<cv::Mat> previous_pyramid_;
  std::vector<KltPoint> points_;
  std::vector<int> ids_;
  std::vector<KltAffineTrack> affine_;  // by track, with points_ (when affine_refinement)
  std::vector<KltFeature> features_;
  int next_id_ = 0;
  int frame_index_ = 0;
  int frames_since_selection_ = 0;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace

std::unique_ptr<KltTracker> CreateKltCpuTracker(const KltOptions& options) {
  return std::make_unique<KltCpuTracker>(options);
}

}  // namespace proj
