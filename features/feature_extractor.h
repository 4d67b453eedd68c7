// The extractor interface every feature implementation plugs into (OpenCV SIFT, the
// project's SIFT on CPU or GPU, trilateral SIFT), and the factory that picks one.
#pragma once

#include <memory>
#include <string>

#include "core/compute_device.h"
#include "cuda/sift/sift_selection.h"
#include "features/feature_types.h"

namespace proj {

enum class FeatureType { kSift, kOpenCvSift };
enum class ScaleSpaceType { kGaussian, kTrilateral };

struct FeatureOptions {
  FeatureType type = FeatureType::kSift;
  ComputeDevice device = ComputeDevice::kAuto;
  GpuSelection gpus;                  // GPUs extraction spreads over (all visible by default)
  SiftSelection selection;            // max_features and SIFT's upsampled first octave
  int num_threads = 0;                // CPU threads; 0 = all
  ScaleSpaceType scale_space = ScaleSpaceType::kGaussian;
  bool edge_test = true;              // SIFT principal-curvature edge rejection
  double trilateral_sigma_c = 0;      // trilateral domain sigma scale; 0 = from the SIFT level
  void Check() const;
};

class FeatureExtractor {
 public:
  virtual ~FeatureExtractor() = default;
  // Extracts features of one image. Implementations with ConcurrentCalls() > 1 are
  // thread-safe and may be called from that many threads at once.
  virtual FeatureSet Extract(const GrayImage& image) = 0;
  // How many Extract calls may run at once (1 for a GPU extractor owning one stream).
  virtual int ConcurrentCalls() const = 0;
  // Human-readable name for logs and reports, e.g. "sift (gpu: NVIDIA H100)".
  virtual std::string Description() const = 0;
};

// Throws InputError when the options ask for something unavailable (gpu without a device).
std::unique_ptr<FeatureExtractor> CreateFeatureExtractor(const FeatureOptions& options);

}  // namespace proj
