#include "matching/root_sift.h"

#include <cmath>

namespace proj {

DescriptorMatrix NormalizedDescriptors(const FeatureSet& features, bool root_sift) {
  DescriptorMatrix out(features.num_descriptors(), kSiftDescriptorSize);
  for (int i = 0; i < features.num_descriptors(); ++i) {
    const uint8_t* d = features.descriptor(i);
    auto row = out.row(i);
    for (int k = 0; k < kSiftDescriptorSize; ++k) row(k) = d[k];
    if (root_sift) {
      const float l1 = row.sum();
      if (l1 > 0) row = (row / l1).cwiseSqrt();
    } else {
      const float l2 = row.norm();
      if (l2 > 0) row /= l2;
    }
  }
  return out;
}

}  // namespace proj
