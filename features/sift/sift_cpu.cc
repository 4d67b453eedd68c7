#include "features/sift/sift_cpu.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/parallel_for.h"
#include "features/sift/sift_descriptor.h"
#include "features/sift/sift_detector.h"

namespace proj {
namespace {

// Indices of `values` sorted by decreasing response, ties in index order, cut to `limit`.
template <typename T>
std::vector<int> StrongestIndices(const std::vector<T>& values, int limit) {
  std::vector<int> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return values[a].response > values[b].response; });
  if (static_cast<int>(order.size()) > limit) order.resize(limit);
  return order;
}

const Plane& NearestLevel(const Octave& octave, const SiftParams& params, float level) {
  const int s = std::clamp(static_cast<int>(std::lround(level)), -1, params.levels_per_octave + 1);
  return octave.gaussians[s + 1];
}

}  // namespace

FeatureSet ExtractSiftCpu(const GrayImage& image, const SiftParams& params,
                          const LevelSmoother& smoother, int num_threads) {
  const ScaleSpace space = BuildScaleSpace(image, params, smoother, num_threads);
  const std::vector<SiftExtremum> extrema = FindScaleSpaceExtrema(space, params, num_threads);

  std::vector<SiftDetection> refined(extrema.size());
  std::vector<char> valid(extrema.size(), 0);
  ParallelFor(0, static_cast<int>(extrema.size()), num_threads, [&](int i, int) {
    valid[i] = RefineExtremum(space, params, extrema[i], &refined[i]);
  });
  std::vector<SiftDetection> detections;
  for (size_t i = 0; i < refined.size(); ++i) {
    if (valid[i]) detections.push_back(refined[i]);
  }
  const std::vector<int> strongest = StrongestIndices(detections, params.selection.max_features);

  // Orientations: up to max_orientations keypoints per kept detection.
  struct Oriented {
    int detection;
    float angle;
    float response;
  };
  std::vector<std::vector<Oriented>> per_detection(strongest.size());
  ParallelFor(0, static_cast<int>(strongest.size()), num_threads, [&](int i, int) {
    const SiftDetection& d = detections[strongest[i]];
    const Octave& octave = space.octaves[d.octave_slot];
    std::vector<float> angles(params.max_orientations);
    const int n = ComputeSiftOrientations(NearestLevel(octave, params, d.level), d.x, d.y, d.sigma,
                                          params, angles.data());
    for (int k = 0; k < n; ++k) per_detection[i].push_back({strongest[i], angles[k], d.response});
  });
  std::vector<Oriented> oriented;
  for (const auto& list : per_detection) oriented.insert(oriented.end(), list.begin(), list.end());
  const std::vector<int> kept = StrongestIndices(oriented, params.selection.max_features);

  FeatureSet features;
  features.keypoints.resize(kept.size());
  features.descriptors.resize(kept.size() * kSiftDescriptorSize);
  ParallelFor(0, static_cast<int>(kept.size()), num_threads, [&](int i, int) {
    const Oriented& o = oriented[kept[i]];
    const SiftDetection& d = detections[o.detection];
    const Octave& octave = space.octaves[d.octave_slot];
    const float spacing = std::ldexp(1.0f, octave.index);
    Keypoint& kp = features.keypoints[i];
    kp.x = d.x * spacing + 0.5f;
    kp.y = d.y * spacing + 0.5f;
    kp.scale = d.sigma * spacing;
    kp.orientation = o.angle;
    kp.response = d.response;
    kp.octave = octave.index;
    ComputeSiftDescriptor(NearestLevel(octave, params, d.level), d.x, d.y, d.sigma, o.angle, params,
                          &features.descriptors[static_cast<size_t>(i) * kSiftDescriptorSize]);
  });
  return features;
}

CpuSiftExtractor::CpuSiftExtractor(const FeatureOptions& options)
    : options_(options), smoother_(MakeLevelSmoother(options)) {
  options_.Check();
}

FeatureSet CpuSiftExtractor::Extract(const GrayImage& image) {
  return ExtractSiftCpu(image, MakeSiftParams(options_, image.width, image.height), smoother_,
                        ResolveNumThreads(options_.num_threads));
}

int CpuSiftExtractor::ConcurrentCalls() const { return ResolveNumThreads(options_.num_threads); }

std::string CpuSiftExtractor::Description() const {
  return options_.scale_space == ScaleSpaceType::kTrilateral ? "sift (cpu, trilateral)"
                                                             : "sift (cpu)";
}

}  // namespace proj
