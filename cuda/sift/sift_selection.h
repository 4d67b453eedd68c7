// How many features an image keeps and whether SIFT searches it 2x upsampled: declared once
// here and nested by FeatureOptions (what the user asks), SiftParams (the CPU reference) and
// cuda::SiftGpuOptions (the GPU). Host-only header; it sits in cuda/ because cuda/ is the
// lowest module that features/ and cuda/ both see (STYLE P1), as cuda/klt/klt_types.h.
#pragma once

#include <algorithm>

namespace proj {

struct SiftSelection {
  int max_features = 8192;  // strongest kept, by detector response
  int upsample = -1;        // upsampled first octave: 1 on, 0 off, -1 auto (below 1000 px)

  // The upsample rule: on when asked, or automatically for images under 1000 px on the
  // longer side (small images have too few features at octave 0).
  bool UpsampleFor(int width, int height) const {
    constexpr int kAutoUpsampleBelowPx = 1000;
    return upsample == 1 || (upsample == -1 && std::max(width, height) < kAutoUpsampleBelowPx);
  }
};

}  // namespace proj
