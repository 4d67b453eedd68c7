// Where KLT tracks leave their 3D points on a synthetic street (issue 16): renders nothing
// itself but reads the frames `sfm synth DIR --street` wrote, rebuilds the same world, tracks
// the frames with the KLT tracker (CPU or GPU) and, for every track, casts the ray of its
// first position into the world to find the 3D point it started on. Each later position is
// compared with that point's true projection (visible points only): the error is split into
// the component along the point's image motion since the track began (+: ahead, -: lagging)
// and across it. Printed by track age (frames since the track began): how the error grows
// along a track, and whether it is biased, which biases the self-calibrated focal length.
//
//   klt_drift_bench DIR [--num-frames 56 --width 1226 --height 370 --seed 1] [--device cpu]
//                   [--max-age 40] [--max-features 2000] [--window 21] [--levels 5] [--per-frame]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/logging.h"
#include "datasets/synthetic/synthetic_output.h"
#include "datasets/synthetic/synthetic_renderer.h"
#include "datasets/synthetic/synthetic_street.h"
#include "features/klt/klt_tracker.h"
#include "io/image_decode.h"
#include "io/strecha_camera.h"
#include "sfm/stages/klt_stage.h"

namespace proj {
namespace {

struct Observation {
  int frame;
  double x, y;
};

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / values.size();
}

// The world point that pixel (x, y) of `camera` sees, if it sees one.
bool PointSeen(const synthetic::SyntheticWorld& world, const StrechaCamera& camera, double x,
               double y, Eigen::Vector3d* point, int* surface = nullptr) {
  synthetic::SurfaceHit hit;
  if (!world.Intersect(synthetic::PixelRay(camera, x, y), &hit)) return false;
  *point = hit.point;
  if (surface != nullptr) *surface = hit.surface;
  return true;
}

// 0: ground, 1: enclosure walls, 2: buildings and cars (boxes).
int SurfaceClass(const synthetic::SyntheticWorld& world, int surface) {
  if (surface == 0) return 0;
  return surface <= world.options().enclosure_sides ? 1 : 2;
}

// True projection of `point` into `camera` when nothing hides it.
bool VisibleProjection(const synthetic::SyntheticWorld& world, const StrechaCamera& camera,
                       const Eigen::Vector3d& point, Eigen::Vector2d* uv) {
  if (!camera.Project(point, uv)) return false;
  if (uv->x() < 0 || uv->y() < 0 || uv->x() > camera.width || uv->y() > camera.height) return false;
  Eigen::Vector3d seen;
  if (!PointSeen(world, camera, uv->x(), uv->y(), &seen)) return false;
  return (seen - point).norm() < 0.01 * std::max(1.0, (point - camera.C).norm());
}

struct AgeStatistics {
  std::vector<double> error, along, across;
};

int Run(int argc, char** argv) {
  CLI::App app("KLT drift against the synthetic street's ground truth");
  std::string dir;
  SyntheticStreetOptions street;
  std::string device_name = "cpu";
  int max_age = 40;
  KltOptions klt;
  app.add_option("dir", dir, "output folder of `sfm synth DIR --street`")->required();
  app.add_option("--num-frames", street.num_frames);
  app.add_option("--width", street.width);
  app.add_option("--height", street.height);
  app.add_option("--seed", street.seed);
  app.add_option("--device", device_name)->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--max-age", max_age);
  app.add_option("--max-features", klt.max_features);
  app.add_option("--window", klt.window_size);
  app.add_option("--levels", klt.num_levels);
  app.add_option("--reselect-interval", klt.reselect_interval_frames);
  bool per_frame = false;
  app.add_flag("--per-frame", per_frame, "also print each frame's tracks continued from the one before");
  if (const auto code = ParseBenchArguments(app, argc, argv)) return *code;
  SetLogLevel(LogLevel::kWarning);

  std::vector<StrechaCamera> cameras;
  std::vector<KltStoredFrame> frames;
  for (int f = 0; f < street.num_frames; ++f) {
    const std::string name = SyntheticImageName(f);
    cameras.push_back(ReadStrechaCamera(dir + "/gt_dense_cameras/" + name + ".camera"));
    frames.push_back(MakeKltStoredFrame(ReadImageFile(dir + "/images/" + name), 0));
  }
  street.width = cameras[0].width;
  street.height = cameras[0].height;
  street.focal_px = cameras[0].K(0, 0);
  const synthetic::SyntheticWorld world = BuildStreetWorld(street);

  const ComputeDevice device = device_name == "gpu" ? ComputeDevice::kGpu : ComputeDevice::kCpu;
  std::unique_ptr<KltTracker> tracker = CreateKltTracker(klt, device);
  std::map<int, std::vector<Observation>> tracks;
  for (int f = 0; f < street.num_frames; ++f) {
    const KltStoredFrame& frame = frames[f];
    for (const KltFeature& feature :
         tracker->ProcessFrame(KltFrame8{frame.grey.data(), frame.width, frame.height})) {
      tracks[feature.track_id].push_back({f, feature.x, feature.y});
    }
  }
  if (per_frame) {
    // Continued: tracks alive in frame f that were alive in f - 1 (what pairs of neighbours
    // share); a turn or a fast pan shows as a dip.
    std::vector<int> alive(street.num_frames, 0), continued(street.num_frames, 0);
    for (const auto& [id, track] : tracks) {
      for (size_t k = 0; k < track.size(); ++k) {
        ++alive[track[k].frame];
        if (k > 0) ++continued[track[k].frame];
      }
    }
    for (int f = 1; f < street.num_frames; ++f) {
      std::printf("frame %d: %d alive, %d continued from frame %d\n", f, alive[f], continued[f], f - 1);
    }
  }

  std::vector<AgeStatistics> by_age(max_age + 1);
  std::vector<std::vector<AgeStatistics>> by_class(3, std::vector<AgeStatistics>(max_age + 1));
  int started = 0, on_surface = 0;
  std::vector<double> lengths;
  for (const auto& [id, track] : tracks) {
    lengths.push_back(static_cast<double>(track.size()));
    ++started;
    Eigen::Vector3d point;
    const Observation& first = track.front();
    int surface = -1;
    if (!PointSeen(world, cameras[first.frame], first.x, first.y, &point, &surface)) continue;
    const int surface_class = SurfaceClass(world, surface);
    ++on_surface;
    Eigen::Vector2d start;
    if (!cameras[first.frame].Project(point, &start)) continue;
    for (size_t k = 1; k < track.size(); ++k) {
      const int age = track[k].frame - first.frame;
      if (age > max_age) break;
      Eigen::Vector2d truth;
      if (!VisibleProjection(world, cameras[track[k].frame], point, &truth)) continue;
      const Eigen::Vector2d error = Eigen::Vector2d(track[k].x, track[k].y) - truth;
      const Eigen::Vector2d motion = truth - start;
      for (AgeStatistics* s : {&by_age[age], &by_class[surface_class][age]}) {
        s->error.push_back(error.norm());
        if (motion.norm() > 2) {
          const Eigen::Vector2d along = motion.normalized();
          s->along.push_back(error.dot(along));
          s->across.push_back(along.x() * error.y() - along.y() * error.x());
        }
      }
    }
  }
  std::printf("%s: %d tracks (%d start on a surface), median length %.0f frames, tracker %s\n",
              dir.c_str(), started, on_surface, Median(lengths), tracker->Description().c_str());
  std::printf("| age | observations | median error px | 90%% error px | mean along motion px | median along px | mean across px |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  const auto print_row = [](const char* label, int age, const AgeStatistics& s) {
    if (s.error.size() < 20) return;
    std::vector<double> sorted = s.error;
    std::sort(sorted.begin(), sorted.end());
    std::printf("| %s%d | %zu | %.3f | %.3f | %+.3f | %+.3f | %+.3f |\n", label, age, s.error.size(),
                Median(s.error), sorted[sorted.size() * 9 / 10], Mean(s.along), Median(s.along),
                Mean(s.across));
  };
  for (int age = 1; age <= max_age; ++age) print_row("", age, by_age[age]);
  const char* class_names[3] = {"ground ", "enclosure ", "boxes "};
  for (int c = 0; c < 3; ++c) {
    for (int age : {1, 2, 4, 8, 16}) {
      if (age <= max_age) print_row(class_names[c], age, by_class[c][age]);
    }
  }
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Run(argc, argv); });
}
