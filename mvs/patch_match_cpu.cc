#include "mvs/patch_match_cpu.h"

#include "core/interrupt.h"
#include "core/parallel_for.h"

namespace proj::mvs {

void RunPatchMatchCpu(const cuda::PmViews& views, const cuda::PmParams& params, int num_iterations,
                      const cuda::PmState& state, int num_threads) {
  const int width = views.reference.width, height = views.reference.height;
  ParallelFor(0, height, num_threads, [&](int y, int) {
    for (int x = 0; x < width; ++x) cuda::PmInitPixel(views, params, state, x, y);
  });
  for (int sweep = 1; sweep <= num_iterations; ++sweep) {
    for (int colour = 0; colour < 2; ++colour) {
      ThrowIfInterrupted();
      ParallelFor(0, height, num_threads, [&](int y, int) {
        for (int x = (y + colour) & 1; x < width; x += 2) cuda::PmUpdatePixel(views, params, state, x, y, sweep);
      });
    }
  }
}

}  // namespace proj::mvs
