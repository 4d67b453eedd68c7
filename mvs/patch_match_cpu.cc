#include "mvs/patch_match_cpu.h"

#include "core/interrupt.h"
#include "core/parallel_for.h"

namespace proj::mvs {
namespace {

// The CPU's reference window (cuda/mvs/patch_match_core.h): PmLiveWindow's samples, values
// and weights computed once per pixel and replayed in the same order for each of the pixel's
// ~13 hypotheses x source views, instead of recomputing every weight's exponential.
class PmCachedWindow {
 public:
  static constexpr int kMaxSamples = 31 * 31;  // window radius <= 15 (PatchMatchOptions::Check)

  PmCachedWindow(const cuda::PmViews& views, const cuda::PmParams& params, int x, int y) {
    const cuda::PmLiveWindow live(views, params, x, y);
    r_mean = live.r_mean;
    r_var = live.r_var;
    live.ForEach([&](int qx, int qy, float r, float w) {
      samples_[count_++] = {qx, qy, r, w};
      return true;
    });
  }

  template <typename Visit>
  bool ForEach(Visit visit) const {
    for (int i = 0; i < count_; ++i) {
      const Sample& s = samples_[i];
      if (!visit(s.qx, s.qy, s.r, s.w)) return false;
    }
    return true;
  }

  float r_mean = 0, r_var = 0;

 private:
  struct Sample {
    int qx, qy;
    float r, w;
  };
  Sample samples_[kMaxSamples];
  int count_ = 0;
};

}  // namespace

void RunPatchMatchCpu(const cuda::PmViews& views, const cuda::PmParams& params, int num_iterations,
                      const cuda::PmState& state, int num_threads) {
  const int width = views.reference.width, height = views.reference.height;
  ParallelFor(0, height, num_threads, [&](int y, int) {
    for (int x = 0; x < width; ++x) cuda::PmInitPixel<PmCachedWindow>(views, params, state, x, y);
  });
  for (int sweep = 1; sweep <= num_iterations; ++sweep) {
    for (int colour = 0; colour < 2; ++colour) {
      ThrowIfInterrupted();
      ParallelFor(0, height, num_threads, [&](int y, int) {
        for (int x = (y + colour) & 1; x < width; x += 2) {
          cuda::PmUpdatePixel<PmCachedWindow>(views, params, state, x, y, sweep);
        }
      });
    }
  }
}

}  // namespace proj::mvs
