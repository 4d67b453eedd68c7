// A small synthetic stereo set for the dense tests: the ring scene rendered in memory with its
// true poses and true depth maps, as DenseViews (grey and colour), so PatchMatch's output can
// be compared with the truth pixel by pixel.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "datasets/synthetic/synthetic_renderer.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "mvs/dense_view.h"
#include "mvs/scene_views.h"
#include "mvs/depth_map.h"

namespace proj::testing {

struct SyntheticStereoSet {
  std::vector<mvs::DenseView> views;
  std::vector<mvs::DepthMap> true_depths;
};

// A synthetic camera (pinhole, no distortion) as dense stereo sees it.
inline mvs::ViewGeometry ViewGeometryOf(const StrechaCamera& camera) { return mvs::PinholeViewGeometry(camera); }

inline mvs::DenseView DenseViewOf(const std::string& name, const StrechaCamera& camera, const Image& image) {
  mvs::DenseView out;
  out.name = name;
  out.geometry = ViewGeometryOf(camera);
  out.colour = image;
  out.grey.resize(static_cast<size_t>(camera.width) * camera.height);
  for (size_t i = 0; i < out.grey.size(); ++i) {
    const uint8_t* rgb = &image.data[3 * i];
    out.grey[i] = (0.299f * rgb[0] + 0.587f * rgb[1] + 0.114f * rgb[2]) / 255.0f;
  }
  return out;
}

// Views `indices` (all when empty) of the ring of `num_images` views at width x height (focal
// length scaled from the default 1280-px scene so the views frame the same world), in that order.
inline SyntheticStereoSet MakeSyntheticStereoSet(int num_images, int width, int height, std::vector<int> indices = {}) {
  SyntheticSceneOptions options;
  options.num_images = num_images;
  options.focal_px *= static_cast<double>(width) / options.width;
  options.width = width;
  options.height = height;
  const std::vector<StrechaCamera> cameras = MakeSyntheticCameras(options);
  if (indices.empty()) {
    for (int i = 0; i < num_images; ++i) indices.push_back(i);
  }
  SyntheticStereoSet set;
  const synthetic::SyntheticWorld world = synthetic::BuildSyntheticWorld(options.world, options.seed, 0);
  for (int i : indices) {
    const Image image = synthetic::RenderView(world, cameras[i], options.supersampling, 0);
    set.views.push_back(DenseViewOf(SyntheticImageName(i), cameras[i], image));
    set.true_depths.emplace_back(synthetic::RenderDepth(world, cameras[i], 0));
  }
  return set;
}

// Share of pixels with depth > 0 in `estimate` (where `valid` allows) whose relative error
// against `truth` is below `tolerance`, and how many pixels that share is over.
struct DepthAgreement {
  double share_within = 0;
  int num_compared = 0;
};

template <typename Valid>
DepthAgreement CompareDepths(const mvs::DepthMap& estimate, const mvs::DepthMap& truth, double tolerance,
                             Valid valid) {
  DepthAgreement result;
  int within = 0;
  for (int y = 0; y < truth.height(); ++y) {
    for (int x = 0; x < truth.width(); ++x) {
      const float t = truth.At(x, y), e = estimate.At(x, y);
      if (t <= 0 || e <= 0 || !valid(x, y)) continue;
      ++result.num_compared;
      if (std::abs(e - t) < tolerance * t) ++within;
    }
  }
  result.share_within = result.num_compared > 0 ? static_cast<double>(within) / result.num_compared : 0;
  return result;
}

}  // namespace proj::testing
