#include "features/klt/klt_tracker.h"

#include "core/check.h"
#include "cuda/device_selection.h"
#include "cuda/klt/klt_gpu_tracker.h"
#include "features/klt/klt_cpu_tracker.h"

namespace proj {
namespace {

cuda::KltImageView View(const GrayImage& image) {
  PROJ_REQUIRE(image.width > 0 && image.height > 0 &&
                   image.pixels.size() == static_cast<size_t>(image.width) * image.height,
               "KLT: image has " << image.pixels.size() << " pixels, expected " << image.width
                                 << "x" << image.height);
  return cuda::KltImageView{image.pixels.data(), image.width, image.height};
}

void CheckFrame(const KltFrame8& frame) {
  PROJ_REQUIRE(frame.pixels != nullptr && frame.width > 0 && frame.height > 0,
               "KLT: 8-bit frame " << frame.width << "x" << frame.height << " has no pixels");
}

class KltGpuTrackerAdapter final : public KltTracker {
 public:
  explicit KltGpuTrackerAdapter(const KltOptions& options) : tracker_(options) {}
  const std::vector<KltFeature>& ProcessFrame(const GrayImage& frame) override {
    return tracker_.ProcessFrame(View(frame));
  }
  const std::vector<KltFeature>& ProcessFrame(const KltFrame8& frame) override {
    CheckFrame(frame);
    return tracker_.ProcessFrame(frame);
  }
  void Reset() override { tracker_.Reset(); }
  std::vector<KltCorner> SelectCorners(const GrayImage& image, int max_count,
                                       const std::vector<KltPoint>& existing) override {
    return tracker_.SelectCorners(View(image), max_count, existing);
  }
  KltTrackResult TrackPoints(const GrayImage& from, const GrayImage& to,
                             const std::vector<KltPoint>& points) override {
    return tracker_.TrackPoints(View(from), View(to), points);
  }
  std::string Description() const override { return tracker_.Description(); }

 private:
  cuda::KltGpuTracker tracker_;
};

}  // namespace

void ToFloatFrame(const KltFrame8& frame, GrayImage* image) {
  CheckFrame(frame);
  image->width = frame.width;
  image->height = frame.height;
  const size_t count = static_cast<size_t>(frame.width) * frame.height;
  image->pixels.resize(count);
  for (size_t i = 0; i < count; ++i) image->pixels[i] = frame.pixels[i] / 255.0f;
}

std::unique_ptr<KltTracker> CreateKltTracker(const KltOptions& options, ComputeDevice device) {
  options.Check();
  if (UseGpu(device, "the GPU KLT tracker")) return std::make_unique<KltGpuTrackerAdapter>(options);
  return CreateKltCpuTracker(options);
}

}  // namespace proj
