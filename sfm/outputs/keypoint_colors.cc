#include "sfm/outputs/keypoint_colors.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "io/image_decode.h"

namespace proj {

std::vector<Eigen::Matrix<uint8_t, 3, 1>> SampleColors(const Image& image,
                                                       const std::vector<Eigen::Vector2d>& keypoints) {
  std::vector<Eigen::Matrix<uint8_t, 3, 1>> colors(keypoints.size());
  for (size_t i = 0; i < keypoints.size(); ++i) {
    const int x = std::clamp(static_cast<int>(keypoints[i].x()), 0, image.width - 1);
    const int y = std::clamp(static_cast<int>(keypoints[i].y()), 0, image.height - 1);
    const uint8_t* p = image.pixel(x, y);
    colors[i] = image.channels == 3 ? Eigen::Matrix<uint8_t, 3, 1>(p[0], p[1], p[2])
                                    : Eigen::Matrix<uint8_t, 3, 1>(p[0], p[0], p[0]);
  }
  return colors;
}

int ColorPointsFromImages(const ImageSource& image_source, int num_threads, Scene* scene) {
  std::vector<int> images;
  for (size_t i = 0; i < scene->images.size(); ++i) {
    const SceneImage& image = scene->images[i];
    if (!image.registered) continue;
    if (std::any_of(image.point3d_ids.begin(), image.point3d_ids.end(), [](int id) { return id != kInvalidId; })) {
      images.push_back(static_cast<int>(i));
    }
  }
  // Each image's observed keypoints and their colours, gathered in parallel, summed in order.
  std::vector<std::vector<Eigen::Matrix<uint8_t, 3, 1>>> colors(images.size());
  std::vector<std::string> errors(images.size());
  ParallelFor(0, static_cast<int>(images.size()), num_threads, [&](int k, int) {
    const SceneImage& image = scene->images[images[k]];
    try {
      const Camera& camera = scene->cameras[image.camera_id];
      // No larger than at extraction: a file replaced since then is refused before decoding.
      DecodeOptions decode;
      decode.max_pixels = std::max<long long>(1, static_cast<long long>(camera.width) * camera.height);
      const Image decoded = ReadImageFile(image_source.Resolve(image.name), nullptr, decode);
      PROJ_REQUIRE(decoded.width == camera.width && decoded.height == camera.height,
                   "its size changed since its features were extracted");
      colors[k] = SampleColors(decoded, image.keypoints);
    } catch (const InputError& error) {
      errors[k] = error.what();
    }
  });
  std::map<int, Eigen::Vector4d> sums;  // rgb sum and count per point
  int unreadable = 0;
  for (size_t k = 0; k < images.size(); ++k) {
    const SceneImage& image = scene->images[images[k]];
    if (colors[k].empty()) {
      PROJ_LOG(kWarning, "colours: '" << image.name << "' could not be read (" << errors[k]
                                      << "); its observations are left out of the point colours");
      ++unreadable;
      continue;
    }
    for (size_t i = 0; i < image.point3d_ids.size(); ++i) {
      if (image.point3d_ids[i] == kInvalidId) continue;
      Eigen::Vector4d& sum = sums.try_emplace(image.point3d_ids[i], Eigen::Vector4d::Zero()).first->second;
      sum.head<3>() += colors[k][i].cast<double>();
      sum[3] += 1;
    }
  }
  for (auto& [id, point] : scene->points) {
    auto sum = sums.find(id);
    if (sum == sums.end()) {
      point.color.setConstant(128);
      continue;
    }
    for (int c = 0; c < 3; ++c) point.color[c] = static_cast<uint8_t>(std::lround(sum->second[c] / sum->second[3]));
  }
  return unreadable;
}

}  // namespace proj
