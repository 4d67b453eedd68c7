#include "sfm/pipeline/keypoint_colors.h"

#include <algorithm>

#include "core/parallel_for.h"
#include "io/image_decode.h"

namespace proj {

std::vector<Eigen::Matrix<uint8_t, 3, 1>> SampleColors(const Image& image,
                                                       const FeatureSet& features) {
  std::vector<Eigen::Matrix<uint8_t, 3, 1>> colors(features.size());
  for (int i = 0; i < features.size(); ++i) {
    const int x = std::clamp(static_cast<int>(features.keypoints[i].x), 0, image.width - 1);
    const int y = std::clamp(static_cast<int>(features.keypoints[i].y), 0, image.height - 1);
    const uint8_t* p = image.pixel(x, y);
    colors[i] = image.channels == 3 ? Eigen::Matrix<uint8_t, 3, 1>(p[0], p[1], p[2])
                                    : Eigen::Matrix<uint8_t, 3, 1>(p[0], p[0], p[0]);
  }
  return colors;
}

void SampleKeypointColors(int num_threads, std::vector<ImageRecord>* records) {
  ParallelFor(0, static_cast<int>(records->size()), num_threads, [&](int i, int) {
    ImageRecord& record = (*records)[i];
    record.colors = SampleColors(ReadImageFile(record.path), record.features);
  });
}

}  // namespace proj
