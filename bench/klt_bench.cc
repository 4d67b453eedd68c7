// KLT benchmark (issue 5): frame pairs at 1920x1080 (2,000 features) and 3840x2160 (10,000),
// GPU stages timed with CUDA events (inside KltGpuTracker) after warm-up, medians over
// repeats; OpenCV's CPU tracker on the same frames and points; and a synthetic 1920x1080
// sequence from frames in host memory to per-pair correspondences (TrackSequence).
//
//   klt_bench [--gpu] [--cpu] [--sequence-frames 300] [--repeats 50] [--cpu-repeats 5]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "core/timer.h"
#include "cuda/device.h"
#include "cuda/klt/klt_gpu_tracker.h"
#include "features/klt/klt_cpu_tracker.h"
#include "features/klt/klt_synthetic.h"
#include "features/klt/klt_tracker.h"
#include "matching/klt_sequence_matcher.h"

namespace proj {
namespace {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

constexpr int kMargin = 64;

SimilarityMotion PairMotion(int width, int height, double shift_x, double shift_y, double angle_rad) {
  SimilarityMotion motion;
  motion.pivot_x = width / 2.0 + kMargin;
  motion.pivot_y = height / 2.0 + kMargin;
  motion.shift_x = shift_x - kMargin;
  motion.shift_y = shift_y - kMargin;
  motion.angle_rad = angle_rad;
  return motion;
}

struct PairCase {
  int width, height, features;
};

void BenchPair(const PairCase& c, bool gpu, bool cpu, int repeats, int cpu_repeats) {
  const SyntheticTexture texture = MakeSyntheticTexture(c.width + 2 * kMargin, c.height + 2 * kMargin, 7);
  const SimilarityMotion first_motion = PairMotion(c.width, c.height, 0, 0, 0);
  const SimilarityMotion second_motion = PairMotion(c.width, c.height, 2.7, -1.9, 0.2 * M_PI / 180);
  const GrayImage first = RenderFrame(texture, first_motion, c.width, c.height);
  const GrayImage second = RenderFrame(texture, second_motion, c.width, c.height);
  KltOptions options;
  options.max_features = c.features;
  std::printf("\n## %dx%d, %d features (window %d, %d levels, forward-backward check on)\n", c.width,
              c.height, c.features, options.window_size, options.num_levels);

  // Corners from the CPU reference so both trackers get the same points.
  std::vector<KltPoint> points;
  auto quality = [&](const KltTrackResult& result) {
    std::vector<double> errors;
    int tracked = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      if (result.status[i] != KltStatus::kTracked) continue;
      ++tracked;
      const KltPoint truth = MapBetweenFrames(first_motion, second_motion, points[i]);
      errors.push_back(std::hypot(truth.x - result.points[i].x, truth.y - result.points[i].y));
    }
    std::printf("  tracked %d of %zu, median error vs truth %.4f px\n", tracked, points.size(), Median(errors));
  };

  if (gpu) {
    cuda::KltImageView a{first.pixels.data(), first.width, first.height};
    cuda::KltImageView b{second.pixels.data(), second.width, second.height};
    cuda::KltGpuTracker tracker(options);
    std::vector<double> select_ms;
    for (int r = 0; r < 5 + repeats / 5; ++r) {
      const auto corners = tracker.SelectCorners(a, c.features, {});
      if (r >= 5) select_ms.push_back(tracker.last_timings().select_ms);
      if (r == 0) {
        points.clear();
        for (const KltCorner& corner : corners) points.push_back(KltPoint{corner.x, corner.y});
      }
    }
    std::printf("GPU (%s)\n", cuda::DeviceDescription().c_str());
    std::printf("  corner selection on one frame: %zu corners, median %.3f ms (device)\n", points.size(),
                Median(select_ms));
    std::vector<double> upload, pyramid, track, download, wall;
    KltTrackResult result;
    for (int r = 0; r < 5 + repeats; ++r) {
      Timer timer;
      result = tracker.TrackPoints(a, b, points);
      const double wall_ms = timer.ElapsedSeconds() * 1e3;
      if (r < 5) continue;  // warm-up
      const cuda::KltGpuTimings& t = tracker.last_timings();
      upload.push_back(t.upload_ms);
      pyramid.push_back(t.pyramid_ms);
      track.push_back(t.track_ms);
      download.push_back(t.download_ms);
      wall.push_back(wall_ms);
    }
    std::vector<double> device_total(pyramid.size());
    for (size_t i = 0; i < pyramid.size(); ++i) device_total[i] = pyramid[i] + track[i];
    std::printf("  pair, medians of %d after 5 warm-up: pyramids (both frames) %.3f ms + LK fwd+bwd %.3f ms"
                " = %.3f ms device; upload (2 float frames) %.3f ms, download %.3f ms; call wall %.3f ms\n",
                repeats, Median(pyramid), Median(track), Median(device_total), Median(upload),
                Median(download), Median(wall));
    quality(result);
  }
  if (cpu) {
    if (points.empty()) {
      for (const KltCorner& corner : CreateKltCpuTracker(options)->SelectCorners(first, c.features, {})) {
        points.push_back(KltPoint{corner.x, corner.y});
      }
    }
    auto tracker = CreateKltCpuTracker(options);
    std::vector<double> wall;
    KltTrackResult result;
    for (int r = 0; r < 1 + cpu_repeats; ++r) {
      Timer timer;
      result = tracker->TrackPoints(first, second, points);
      if (r > 0) wall.push_back(timer.ElapsedSeconds() * 1e3);
    }
    std::printf("CPU OpenCV (%u hardware threads): pair incl. 8-bit conversion, pyramids, LK fwd+bwd: "
                "median %.2f ms of %d\n",
                std::thread::hardware_concurrency(), Median(wall), cpu_repeats);
    quality(result);
  }
}

void BenchSequence(int num_frames, ComputeDevice device) {
  constexpr int kWidth = 1920, kHeight = 1080;
  const double speed_x = 1.5, speed_y = 0.5;
  const int margin_x = static_cast<int>(speed_x * num_frames) + 64;
  const int margin_y = static_cast<int>(speed_y * num_frames) + 64;
  const SyntheticTexture texture = MakeSyntheticTexture(kWidth + margin_x + 64, kHeight + margin_y + 64, 8);
  auto motion = [&](int f) {
    SimilarityMotion m;
    m.pivot_x = kWidth / 2.0 + 64;
    m.pivot_y = kHeight / 2.0 + 64;
    m.shift_x = -64 - speed_x * f;  // the camera pans right and down over the texture
    m.shift_y = -64 - speed_y * f + 3.0 * std::sin(f / 15.0);
    m.angle_rad = 0.0005 * std::sin(f / 40.0);
    return m;
  };
  Timer render_timer;
  std::vector<GrayImage> frames(num_frames);
  for (int f = 0; f < num_frames; ++f) frames[f] = RenderFrame(texture, motion(f), kWidth, kHeight);
  const double render_s = render_timer.ElapsedSeconds();

  KltOptions options;  // 2,000 features, reselection every 5 frames
  KltSequenceOptions sequence;
  sequence.device = device;
  auto tracker = CreateKltTracker(options, device);
  // Warm-up on a few frames (allocations, first launches).
  const std::vector<GrayImage> warm_up(frames.begin(), frames.begin() + std::min(num_frames, 6));
  TrackSequence(warm_up, tracker.get(), sequence);
  Timer timer;
  const SequenceCorrespondences result = TrackSequence(frames, tracker.get(), sequence);
  const double seconds = timer.ElapsedSeconds();

  size_t keypoints = 0, matches = 0;
  for (const auto& k : result.keypoints) keypoints += k.size();
  std::vector<double> errors;
  for (const PairMatches& p : result.pairs) {
    matches += p.matches.size();
    if (p.pair.image2 - p.pair.image1 != 1) continue;
    for (const FeatureMatch& m : p.matches) {
      const Keypoint& a = result.keypoints[p.pair.image1][m.index1];
      const Keypoint& b = result.keypoints[p.pair.image2][m.index2];
      const KltPoint truth = MapBetweenFrames(motion(p.pair.image1), motion(p.pair.image2), KltPoint{a.x, a.y});
      errors.push_back(std::hypot(truth.x - b.x, truth.y - b.y));
    }
  }
  std::printf("\n## Sequence %d frames 1920x1080 (%s), frames in host memory (rendered in %.1f s, not timed)\n",
              num_frames, tracker->Description().c_str(), render_s);
  std::printf("  frames -> correspondences: %.3f s total, %.2f ms per frame\n", seconds, 1e3 * seconds / num_frames);
  std::printf("  %d tracks, %.0f keypoints per frame, %zu pairs (gaps 1,2,4,8), %zu matches, "
              "consecutive-pair median error vs truth %.4f px\n",
              result.num_tracks, static_cast<double>(keypoints) / num_frames, result.pairs.size(), matches,
              Median(errors));
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  CLI::App app{"KLT tracker benchmark"};
  bool gpu = false, cpu = false;
  int sequence_frames = 300, cpu_sequence_frames = 20, repeats = 50, cpu_repeats = 5;
  app.add_flag("--gpu", gpu, "benchmark the GPU tracker");
  app.add_flag("--cpu", cpu, "benchmark the OpenCV CPU tracker");
  app.add_option("--sequence-frames", sequence_frames, "GPU sequence length (0 skips)");
  app.add_option("--cpu-sequence-frames", cpu_sequence_frames, "CPU sequence length (0 skips)");
  app.add_option("--repeats", repeats, "timed GPU repeats per pair")->check(CLI::PositiveNumber);
  app.add_option("--cpu-repeats", cpu_repeats, "timed CPU repeats per pair")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  if (!gpu && !cpu) gpu = cpu = true;
  if (gpu && !proj::cuda::DeviceAvailable()) {
    std::fprintf(stderr, "no usable GPU (%s); GPU benchmarks skipped\n", proj::cuda::DeviceDescription().c_str());
    gpu = false;
  }
  for (const proj::PairCase& c : {proj::PairCase{1920, 1080, 2000}, proj::PairCase{3840, 2160, 10000}}) {
    proj::BenchPair(c, gpu, cpu, repeats, cpu_repeats);
  }
  if (gpu && sequence_frames > 0) proj::BenchSequence(sequence_frames, proj::ComputeDevice::kGpu);
  if (cpu && cpu_sequence_frames > 0) proj::BenchSequence(cpu_sequence_frames, proj::ComputeDevice::kCpu);
  return 0;
}
