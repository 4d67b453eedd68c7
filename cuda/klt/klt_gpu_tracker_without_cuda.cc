// Stand-in for builds without nvcc: constructing the GPU tracker reports that no GPU support
// was built, so callers fall back to (or ask for) the CPU tracker.
#include "core/check.h"
#include "cuda/klt/klt_gpu_tracker.h"

namespace proj::cuda {

struct KltGpuTracker::Impl {
  KltGpuTimings timings;
  std::vector<KltFeature> features;
};

KltGpuTracker::KltGpuTracker(const KltOptions& options, int /*device*/) {
  options.Check();
  PROJ_REQUIRE(false, "the GPU KLT tracker is unavailable: this program was built without CUDA");
}
KltGpuTracker::~KltGpuTracker() = default;
const std::vector<KltFeature>& KltGpuTracker::ProcessFrame(const KltImageView&) { return impl_->features; }
const std::vector<KltFeature>& KltGpuTracker::ProcessFrame(const KltFrame8&) { return impl_->features; }
void KltGpuTracker::Reset() {}
std::vector<KltCorner> KltGpuTracker::SelectCorners(const KltImageView&, int, const std::vector<KltPoint>&) {
  return {};
}
KltTrackResult KltGpuTracker::TrackPoints(const KltImageView&, const KltImageView&,
                                          const std::vector<KltPoint>&) {
  return {};
}
const KltGpuTimings& KltGpuTracker::last_timings() const { return impl_->timings; }
std::string KltGpuTracker::Description() const { return "klt (gpu: built without CUDA)"; }

}  // namespace proj::cuda
