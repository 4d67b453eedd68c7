// KLT benchmark (issue 5): frame pairs at 1920x1080 (2,000 features) and 3840x2160 (10,000),
// GPU stages timed with CUDA events (inside KltGpuTracker) after warm-up, medians over
// repeats; OpenCV's CPU tracker on the same frames and points; a 1920x1080 moving-texture
// sequence from frames in host memory to per-pair correspondences (TrackSequence, float and
// 8-bit frames); and the goal of issue 5: a 300-frame 1920x1080 synthetic sequence (the 3D
// scene of `sfm synth --sequence`) from decoded frames in host memory to verified
// correspondences, through the code `sfm reconstruct --matcher klt` runs after decoding
// (TrackAndVerifyFrames: tracking with the pairs verified meanwhile on the CPU threads).
//
//   klt_bench [--gpu] [--cpu] [--sequence-frames 300] [--goal-frames 300] [--threads 0,15]
//             [--goal-repeats 5] [--repeats 50] [--cpu-repeats 5]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_cli.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "cuda/klt/klt_gpu_tracker.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "features/image_preprocessing.h"
#include "features/klt/klt_cpu_tracker.h"
#include "features/klt/klt_synthetic.h"
#include "features/klt/klt_tracker.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "matching/klt_sequence_matcher.h"
#include "sfm/stages/sequence_stage.h"

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

  // The same frames rounded to 8 bits (as the pipeline keeps them); the float run tracks
  // their float values, so both runs give the same tracks.
  std::vector<std::vector<uint8_t>> bytes(num_frames);
  for (int f = 0; f < num_frames; ++f) {
    bytes[f].resize(frames[f].pixels.size());
    for (size_t p = 0; p < bytes[f].size(); ++p) {
      bytes[f][p] = static_cast<uint8_t>(std::lround(std::clamp(frames[f].pixels[p], 0.0f, 1.0f) * 255));
    }
    ToFloatFrame(KltFrame8{bytes[f].data(), kWidth, kHeight}, &frames[f]);
  }
  const Frame8Provider frame8 = [&](int f) { return KltFrame8{bytes[f].data(), kWidth, kHeight}; };

  KltOptions options;  // 2,000 features, reselection every 5 frames
  KltSequenceOptions sequence;
  sequence.device = device;
  auto tracker = CreateKltTracker(options, device);
  // Warm-up on a few frames (allocations, first launches).
  const std::vector<GrayImage> warm_up(frames.begin(), frames.begin() + std::min(num_frames, 6));
  TrackSequence(warm_up, tracker.get(), sequence);
  SequenceCorrespondences warm_up8;
  TrackSequence(std::min(num_frames, 6), frame8, tracker.get(), sequence, {}, &warm_up8);
  Timer timer;
  const SequenceCorrespondences result = TrackSequence(frames, tracker.get(), sequence);
  const double seconds = timer.ElapsedSeconds();
  timer.Restart();
  SequenceCorrespondences result8;
  TrackSequence(num_frames, frame8, tracker.get(), sequence, {}, &result8);
  const double seconds8 = timer.ElapsedSeconds();
  bool same = result8.num_tracks == result.num_tracks && result8.pairs.size() == result.pairs.size();
  for (int f = 0; same && f < num_frames; ++f) {
    same = result8.track_ids[f] == result.track_ids[f];
    for (size_t k = 0; same && k < result8.keypoints[f].size(); ++k) {
      same = result8.keypoints[f][k].x == result.keypoints[f][k].x &&
             result8.keypoints[f][k].y == result.keypoints[f][k].y;
    }
  }

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
  std::printf("  frames -> correspondences: float frames (pageable) %.3f s, %.2f ms per frame; 8-bit frames "
              "(pinned staging, converted on the device) %.3f s, %.2f ms per frame; identical tracks: %s\n",
              seconds, 1e3 * seconds / num_frames, seconds8, 1e3 * seconds8 / num_frames, same ? "yes" : "NO");
  std::printf("  %d tracks, %.0f keypoints per frame, %zu pairs (gaps 1,2,4,8), %zu matches, "
              "consecutive-pair median error vs truth %.4f px\n",
              result.num_tracks, static_cast<double>(keypoints) / num_frames, result.pairs.size(), matches,
              Median(errors));
}

// --- The goal: frames -> verified correspondences ---

struct GoalRun {
  double tracking = 0, verification = 0, total = 0;
};

struct VerifiedCounts {
  size_t pairs = 0, putative = 0, verified = 0, inliers = 0;
  std::map<std::string, int> configurations;
};

VerifiedCounts Count(const std::vector<PairMatches>& pairs, const std::vector<TwoViewGeometry>& geometries) {
  VerifiedCounts counts;
  counts.pairs = pairs.size();
  for (size_t p = 0; p < pairs.size(); ++p) {
    counts.putative += pairs[p].matches.size();
    ++counts.configurations[TwoViewConfigurationName(geometries[p].configuration)];
    if (geometries[p].configuration == TwoViewConfiguration::kDegenerate) continue;
    ++counts.verified;
    counts.inliers += geometries[p].inlier_matches.size();
  }
  return counts;
}

void PrintCounts(const char* label, const VerifiedCounts& c) {
  std::printf("  %s: %zu pairs, %zu putative matches, %zu verified pairs, %zu inlier correspondences (", label,
              c.pairs, c.putative, c.verified, c.inliers);
  for (const auto& [name, count] : c.configurations) std::printf(" %s %d", name.c_str(), count);
  std::printf(" )\n");
}

// Pairs whose geometry (configuration and inliers) differs between two runs; -1 when the pair
// lists differ.
int DifferingPairs(const KltStageResult& a, const std::vector<PairMatches>& pairs_b,
                   const std::vector<TwoViewGeometry>& geometries_b) {
  if (a.putative_pairs.size() != pairs_b.size()) return -1;
  int differing = 0;
  for (size_t p = 0; p < pairs_b.size(); ++p) {
    if (a.putative_pairs[p].pair.image1 != pairs_b[p].pair.image1 ||
        a.putative_pairs[p].pair.image2 != pairs_b[p].pair.image2) {
      return -1;
    }
    const TwoViewGeometry& x = a.geometries[p];
    const TwoViewGeometry& y = geometries_b[p];
    bool same = x.configuration == y.configuration && x.inlier_matches.size() == y.inlier_matches.size();
    for (size_t k = 0; same && k < x.inlier_matches.size(); ++k) {
      same = x.inlier_matches[k].index1 == y.inlier_matches[k].index1 &&
             x.inlier_matches[k].index2 == y.inlier_matches[k].index2;
    }
    differing += !same;
  }
  return differing;
}

// The code before verification was overlapped, for a before/after on one machine: each frame
// converted to float on the host when the tracker asks for it, copied from pageable memory,
// then all pairs verified (keypoints normalized per pair, old EstimateTwoViewGeometry).
GoalRun RunBeforeOverlap(const ReconstructionOptions& options, const DecodedSequence& decoded,
                         std::vector<PairMatches>* pairs, std::vector<TwoViewGeometry>* geometries) {
  GoalRun run;
  Timer total;
  const std::vector<Camera> cameras = ImageCameras(options.cameras, decoded.images);
  auto tracker = CreateKltTracker(options.klt.klt, options.klt.sequence.device);
  const FrameProvider provider = [&](int f, GrayImage* frame) {
    const KltStoredFrame& stored = decoded.frames[f];
    ToFloatFrame(KltFrame8{stored.grey.data(), stored.width, stored.height}, frame);
  };
  const int count = static_cast<int>(decoded.frames.size());
  SequenceCorrespondences correspondences = TrackSequence(count, provider, tracker.get(), options.klt.sequence);
  run.tracking = total.ElapsedSeconds();
  Timer timer;
  std::vector<std::vector<Eigen::Vector2d>> keypoints(count);
  for (int f = 0; f < count; ++f) {
    FeatureSet set;
    set.keypoints = std::move(correspondences.keypoints[f]);
    ScaleKeypoints(decoded.frames[f].scale, &set);
    for (const Keypoint& k : set.keypoints) keypoints[f].emplace_back(k.x, k.y);
  }
  *pairs = std::move(correspondences.pairs);
  geometries->assign(pairs->size(), TwoViewGeometry());
  ParallelFor(0, static_cast<int>(pairs->size()), options.klt.num_threads, [&](int p, int) {
    const ImagePair& pair = (*pairs)[p].pair;
    TwoViewGeometryOptions two_view = options.two_view;
    two_view.seed = options.two_view.seed + static_cast<uint64_t>(p);
    (*geometries)[p] = EstimateTwoViewGeometry(two_view, cameras[pair.image1], keypoints[pair.image1],
                                               cameras[pair.image2], keypoints[pair.image2], (*pairs)[p].matches);
  });
  run.verification = timer.ElapsedSeconds();
  run.total = total.ElapsedSeconds();
  return run;
}

GoalRun Median(const std::vector<GoalRun>& runs) {
  std::vector<double> tracking, verification, total;
  for (const GoalRun& r : runs) {
    tracking.push_back(r.tracking);
    verification.push_back(r.verification);
    total.push_back(r.total);
  }
  return GoalRun{Median(tracking), Median(verification), Median(total)};
}

void PrintRuns(const char* label, const std::vector<GoalRun>& runs) {
  const GoalRun m = Median(runs);
  std::printf("  %-58s tracking %.3f s + verification after tracking %.3f s = total %.3f s (median of %zu;",
              label, m.tracking, m.verification, m.total, runs.size());
  for (const GoalRun& r : runs) std::printf(" %.3f", r.total);
  std::printf(")\n");
}

void BenchGoal(int num_frames, ComputeDevice device, int repeats, const std::vector<int>& thread_counts,
               bool before) {
  SyntheticSceneOptions scene;  // as `sfm synth --sequence --num-images N --width 1920 --height 1080`
  scene.sequence = true;
  scene.num_frames = num_frames;
  scene.width = 1920;
  scene.height = 1080;
  Timer timer;
  std::vector<SyntheticView> views = RenderSyntheticScene(scene);
  const double render_s = timer.ElapsedSeconds();
  // The JPEG files `sfm synth` writes, decoded and converted as the pipeline's decoding stage
  // does (that stage is outside the goal; its time is printed for reference, without file I/O).
  std::vector<std::vector<uint8_t>> jpegs(views.size());
  ParallelFor(0, num_frames, 0, [&](int f, int) { jpegs[f] = EncodeJpeg(views[f].image, scene.jpeg_quality); });
  ReconstructionOptions options;  // the defaults of `sfm reconstruct --matcher klt`
  options.correspondences = CorrespondenceSource::kKltTracks;
  options.klt.sequence.device = device;
  options.klt.max_image_size = options.extraction.max_image_size;
  DecodedSequence decoded;
  decoded.images.resize(num_frames);
  decoded.frames.resize(num_frames);
  timer.Restart();
  ParallelFor(0, num_frames, 0, [&](int f, int) {
    const Image image = DecodeImage(jpegs[f].data(), jpegs[f].size(), views[f].name);
    decoded.images[f].name = decoded.images[f].path = views[f].name;
    decoded.images[f].width = image.width;
    decoded.images[f].height = image.height;
    decoded.frames[f] = MakeKltStoredFrame(image, options.klt.max_image_size);
  });
  const double decode_s = timer.ElapsedSeconds();
  views.clear();
  jpegs.clear();

  std::printf("\n## Goal: %d-frame 1920x1080 synthetic sequence (sfm synth --sequence), decoded 8-bit frames in "
              "host memory -> verified correspondences (TrackAndVerifyFrames, as sfm reconstruct --matcher klt)\n",
              num_frames);
  std::printf("  rendering %.1f s and JPEG decoding + grey conversion %.3f s (%u threads) are outside the goal\n",
              render_s, decode_s, std::thread::hardware_concurrency());
  {
    auto probe = CreateKltTracker(options.klt.klt, device);
    std::printf("  tracker: %s; KLT defaults (%d features, reselection every %d frames), pairs at gaps 1,2,4,8; "
                "two-view verification defaults (max error %.1f px, min %d inliers)\n",
                probe->Description().c_str(), options.klt.klt.max_features,
                options.klt.klt.reselect_interval_frames, options.two_view.max_error_px,
                options.two_view.min_num_inliers);
  }
  TrackAndVerifyFrames(options, decoded);  // warm-up (CUDA context, allocations, page faults)

  KltStageResult reference;
  for (int threads : thread_counts) {
    options.klt.num_threads = threads;
    for (bool overlap : {true, false}) {
      options.klt.overlap_verification = overlap;
      std::vector<GoalRun> runs;
      for (int r = 0; r < (overlap ? repeats : std::max(1, repeats / 2)); ++r) {
        Timer total;
        KltStageResult result = TrackAndVerifyFrames(options, decoded);
        runs.push_back(GoalRun{result.tracking_seconds, result.verification_seconds, total.ElapsedSeconds()});
        if (reference.putative_pairs.empty()) reference = std::move(result);
        else if (r == 0) {
          const int differing = DifferingPairs(reference, result.putative_pairs, result.geometries);
          if (differing != 0) std::printf("  !! %d pairs differ from the first run\n", differing);
        }
      }
      char label[128];
      const int n = ResolveNumThreads(threads);
      if (overlap) {
        std::snprintf(label, sizeof(label), "overlapped, %d threads (%d verify while tracking):", n, std::max(1, n - 1));
      } else {
        std::snprintf(label, sizeof(label), "verification after tracking, %d threads:", n);
      }
      PrintRuns(label, runs);
    }
  }
  PrintCounts("result", Count(reference.putative_pairs, reference.geometries));
  if (before) {
    options.klt.num_threads = 0;
    std::vector<GoalRun> runs;
    std::vector<PairMatches> pairs;
    std::vector<TwoViewGeometry> geometries;
    for (int r = 0; r < std::max(1, repeats / 2); ++r) runs.push_back(RunBeforeOverlap(options, decoded, &pairs, &geometries));
    PrintRuns("before (float frames, then verification, all threads):", runs);
    PrintCounts("before", Count(pairs, geometries));
    const int differing = DifferingPairs(reference, pairs, geometries);
    std::printf("  geometries identical to before: %s\n",
                differing == 0 ? "yes" : differing < 0 ? "NO (pair lists differ)"
                                                       : (std::to_string(differing) + " pairs differ").c_str());
  }
}

}  // namespace
}  // namespace proj

namespace {

int Main(int argc, char** argv) {
  CLI::App app{"KLT tracker benchmark"};
  bool gpu = false, cpu = false;
  int sequence_frames = 300, cpu_sequence_frames = 20, repeats = 50, cpu_repeats = 5;
  int goal_frames = 300, cpu_goal_frames = 0, goal_repeats = 5;
  std::vector<int> thread_counts = {0};
  bool before = true;
  app.add_flag("--gpu", gpu, "benchmark the GPU tracker");
  app.add_flag("--cpu", cpu, "benchmark the OpenCV CPU tracker");
  app.add_option("--sequence-frames", sequence_frames, "GPU sequence length (0 skips)");
  app.add_option("--cpu-sequence-frames", cpu_sequence_frames, "CPU sequence length (0 skips)");
  app.add_option("--goal-frames", goal_frames,
                 "GPU: frames of the synthetic sequence from frames to verified correspondences (0 skips)");
  app.add_option("--cpu-goal-frames", cpu_goal_frames, "the same with the CPU tracker (0 skips)");
  app.add_option("--goal-repeats", goal_repeats, "timed repeats of the goal run")->check(CLI::PositiveNumber);
  app.add_option("--threads", thread_counts, "verifying thread counts to time (0 = all)")->delimiter(',');
  app.add_option("--before", before, "also time the code before overlapping (1/0)");
  app.add_option("--repeats", repeats, "timed GPU repeats per pair")->check(CLI::PositiveNumber);
  app.add_option("--cpu-repeats", cpu_repeats, "timed CPU repeats per pair")->check(CLI::PositiveNumber);
  if (const auto exit_code = proj::ParseBenchArguments(app, argc, argv)) return *exit_code;
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
  proj::SetLogLevel(proj::LogLevel::kWarning);  // no progress lines
  if (gpu && goal_frames > 0) proj::BenchGoal(goal_frames, proj::ComputeDevice::kGpu, goal_repeats, thread_counts, before);
  if (cpu && cpu_goal_frames > 0) {
    proj::BenchGoal(cpu_goal_frames, proj::ComputeDevice::kCpu, goal_repeats, thread_counts, before);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return Main(argc, argv); });
}
