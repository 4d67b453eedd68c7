// Fused dense clouds measured (issue 24; methods in bench/RESULTS-dense.md):
//
//   dense_cloud_accuracy synth CLOUD.ply --true-depth DIR --gt DIR [--model MODEL_DIR]
//       [--images DIR] [--relative 0.005,0.01,0.02] [--threshold-m A,B] [--stride 1]
//       [--threads N] [--json FILE]
//     Against the synthetic scene's true surface: the points of every true depth map
//     (SYNTH/depth/NAME.bin) back-projected through the true cameras (SYNTH/gt_dense_cameras,
//     pixel (x, y) at its centre (x + 0.5, y + 0.5), depth = camera-frame z), thinned to one
//     point per voxel of a fifth of the smallest threshold so that surfaces seen by many views
//     do not count more. With --model (the reconstruction's COLMAP model, OUT/model) the cloud,
//     in the model's frame, is first mapped by the similarity that aligns the model's camera
//     centres to the true ones (sfm evaluate's alignment). For each threshold t (a share of the
//     median true depth, and absolute values in the truth's units):
//       accuracy      share of our points within t of the true surface;
//       completeness  share of true surface points within t of one of ours (and, with
//                     --images, of the textured ones only: dense_eval.h);
//       F-score       their harmonic mean.
//     Plus the median and 90th percentile of both distances.
//
//   dense_cloud_accuracy reference OURS.las REFERENCE.las [--coverage-m 0.25]
//       [--icp-iterations 30] [--icp-max-pair-m 2] [--icp-sample 200000] [--threads N]
//       [--json FILE]
//     Against a reference cloud in the same CRS (e.g. the drone flight's model.laz turned into
//     LAS): cloud-to-cloud distance (each of our points to its nearest reference point:
//     median, 90th percentile, mean, shares within 0.5 / 1 / 2 m, mean offset to the
//     reference) and coverage (share of the reference's points within --coverage-m of ours);
//     then the same after a rigid best fit of ours onto the reference (point-to-point ICP, no
//     scale, from the identity since both are georeferenced), so that placement error (the
//     fit: shift and rotation) and shape error (what remains) are apart. The fit pairs a
//     sample of our points with their nearest reference points and keeps pairs within
//     max(--icp-max-pair-m, 3 x the sample's median distance): robust to points the reference
//     does not cover, and able to start from an offset larger than the gate.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <Eigen/Geometry>

#include "bench/bench_cli.h"
#include "bench/dense_eval.h"
#include "geometry/solvers/similarity.h"
#include "io/image_decode.h"
#include "io/las_file.h"
#include "io/ply.h"
#include "io/strecha_camera.h"
#include "mvs/depth_map.h"

namespace proj {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();  // "not measured"

double ShareWithin(const std::vector<double>& distances, double t,
                   const std::vector<uint8_t>* subset = nullptr) {
  long long within = 0, count = 0;
  for (size_t i = 0; i < distances.size(); ++i) {
    if (subset != nullptr && !(*subset)[i]) continue;
    ++count;
    within += distances[i] <= t;
  }
  return Share(within, count);
}

// "12.34%", or "-" for NaN (not measured).
std::string Percent(double share) {
  if (std::isnan(share)) return "-";
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f%%", 100 * share);
  return text;
}

// ---------------------------------------------------------------------------------------
// synth

struct TrueSurface {
  std::vector<Eigen::Vector3d> points;
  std::vector<uint8_t> textured;  // per point; all 1 without images
  long long num_pixels = 0;       // back-projected pixels before thinning
  double median_depth = 0;
};

struct TrueView {
  std::string name;
  mvs::DepthMap depth;
  StrechaCamera camera;
};

// One key per voxel (21 bits per axis; voxels 2^20 apart alias, far beyond any scene here).
uint64_t VoxelKey(const Eigen::Vector3d& p, double voxel) {
  uint64_t key = 0;
  for (int k = 0; k < 3; ++k) {
    const int64_t i = static_cast<int64_t>(std::floor(p[k] / voxel)) + (int64_t{1} << 20);
    key = (key << 21) | (static_cast<uint64_t>(i) & 0x1FFFFF);
  }
  return key;
}

std::vector<TrueView> ReadTrueViews(const std::string& depth_dir, const std::string& gt_dir) {
  const auto depths = ListFilesWithSuffix(depth_dir, ".bin");
  const auto cameras = ListFilesWithSuffix(gt_dir, ".camera");
  std::vector<TrueView> views;
  for (const auto& [name, path] : depths) {
    const auto camera = cameras.find(name);
    PROJ_REQUIRE(camera != cameras.end(), "true depth map '" << path << "' has no camera '"
                                                             << gt_dir << "/" << name << ".camera'");
    TrueView view{name, mvs::ReadDepthMap(path), ReadStrechaCamera(camera->second)};
    PROJ_REQUIRE(view.depth.width() == view.camera.width && view.depth.height() == view.camera.height,
                 "'" << path << "' is not of its camera's size");
    views.push_back(std::move(view));
  }
  PROJ_REQUIRE(!views.empty(), "no true depth maps (NAME.bin) in '" << depth_dir << "'");
  return views;
}

double MedianTrueDepth(const std::vector<TrueView>& views) {
  std::vector<double> depths;
  for (const auto& v : views) {
    for (float d : v.depth.raster().data) {
      if (std::isfinite(d) && d > 0) depths.push_back(d);
    }
  }
  PROJ_REQUIRE(!depths.empty(), "the true depth maps are empty");
  return Quantile(std::move(depths), 0.5);
}

TrueSurface BuildTrueSurface(const std::vector<TrueView>& views, const std::string& images_dir,
                             int stride, double voxel) {
  TrueSurface surface;
  std::unordered_map<uint64_t, int> voxels;
  for (const TrueView& view : views) {
    std::vector<uint8_t> textured;
    if (!images_dir.empty()) {
      const Image image = ReadImageFile(images_dir + "/" + view.name);
      PROJ_REQUIRE(image.width == view.depth.width() && image.height == view.depth.height(),
                   "'" << images_dir << "/" << view.name << "' is not of its depth map's size");
      textured = TexturedPixels(image, TextureOptions());
    }
    const Eigen::Matrix3d k_inverse = view.camera.K.inverse();
    for (int y = 0; y < view.depth.height(); y += stride) {
      for (int x = 0; x < view.depth.width(); x += stride) {
        const float d = view.depth.At(x, y);
        if (!(std::isfinite(d) && d > 0)) continue;
        ++surface.num_pixels;
        const Eigen::Vector3d point =
            view.camera.R * (k_inverse * Eigen::Vector3d(x + 0.5, y + 0.5, 1.0) * d) + view.camera.C;
        const bool is_textured =
            textured.empty() || textured[static_cast<size_t>(y) * view.depth.width() + x];
        const auto [it, added] = voxels.emplace(VoxelKey(point, voxel), static_cast<int>(surface.points.size()));
        if (added) {
          surface.points.push_back(point);
          surface.textured.push_back(is_textured);
        } else if (is_textured) {
          surface.textured[it->second] = 1;
        }
      }
    }
  }
  return surface;
}

std::vector<double> ParseList(const std::string& text, const char* what) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    PROJ_REQUIRE(end != item.c_str() && *end == '\0' && v > 0,
                 what << ": '" << item << "' is not a positive number");
    values.push_back(v);
  }
  return values;
}

struct SynthArgs {
  std::string cloud_path, depth_dir, gt_dir, model_dir, images_dir, json_path;
  std::string relative = "0.005,0.01,0.02";
  std::string absolute;
  int stride = 1;
  int threads = 0;
};

int RunSynth(const SynthArgs& args) {
  const std::vector<TrueView> views = ReadTrueViews(args.depth_dir, args.gt_dir);
  const double median_depth = MedianTrueDepth(views);
  struct Threshold {
    std::string label;
    double metres;
  };
  std::vector<Threshold> thresholds;
  for (double r : ParseList(args.relative, "--relative")) {
    char label[64];
    std::snprintf(label, sizeof(label), "%.3g%% of depth", 100 * r);
    thresholds.push_back({label, r * median_depth});
  }
  for (double t : ParseList(args.absolute, "--threshold-m")) {
    char label[64];
    std::snprintf(label, sizeof(label), "%.4g", t);
    thresholds.push_back({label, t});
  }
  PROJ_REQUIRE(!thresholds.empty(), "no thresholds (--relative, --threshold-m)");
  double smallest = kInfinity, largest = 0;
  for (const auto& t : thresholds) {
    smallest = std::min(smallest, t.metres);
    largest = std::max(largest, t.metres);
  }
  const double voxel = smallest / 5;
  const TrueSurface truth = BuildTrueSurface(views, args.images_dir, args.stride, voxel);

  std::vector<Eigen::Vector3d> ours;
  for (const Eigen::Vector3f& p : ReadPly(args.cloud_path).positions) ours.push_back(p.cast<double>());
  PROJ_REQUIRE(!ours.empty(), "'" << args.cloud_path << "' has no points");
  std::optional<AlignedModel> aligned;
  if (!args.model_dir.empty()) {
    aligned = AlignModelToTruth(args.model_dir, args.gt_dir);
    for (auto& p : ours) p = aligned->evaluation.true_from_model * p;
  }

  // Distances beyond a few thresholds only matter as "far": capped for speed.
  const double cap = 10 * largest;
  const std::vector<double> to_truth =
      NearestDistances(PointKdTree(truth.points), ours, cap, args.threads);
  const std::vector<double> to_ours =
      NearestDistances(PointKdTree(ours), truth.points, cap, args.threads);

  long long num_textured = 0;
  for (uint8_t t : truth.textured) num_textured += t;
  std::printf("true surface: %zu points (%lld pixels, stride %d, one per %.4g voxel, %lld "
              "textured); median true depth %.4g\n",
              truth.points.size(), truth.num_pixels, args.stride, voxel, num_textured, median_depth);
  std::printf("ours: %zu points", ours.size());
  if (aligned) {
    std::printf(", aligned to the truth by the model's cameras (scale %.6g, median camera "
                "position error %.4g)", aligned->evaluation.true_from_model.scale,
                aligned->evaluation.median_position_error);
  }
  std::printf("\n%-18s %10s %9s %13s %13s %8s\n", "threshold", "t", "accuracy", "completeness",
              "compl.textured", "F-score");
  std::ostringstream rows;
  for (const auto& t : thresholds) {
    const double accuracy = ShareWithin(to_truth, t.metres);
    const double completeness = ShareWithin(to_ours, t.metres);
    const double textured = args.images_dir.empty() ? kNaN : ShareWithin(to_ours, t.metres, &truth.textured);
    const double f = accuracy + completeness > 0 ? 2 * accuracy * completeness / (accuracy + completeness) : 0;
    std::printf("%-18s %10.4g %8.2f%% %12.2f%% %13s %7.2f%%\n", t.label.c_str(), t.metres,
                100 * accuracy, 100 * completeness, Percent(textured).c_str(), 100 * f);
    rows << (rows.tellp() > 0 ? ",\n" : "\n") << "    {\"label\": \"" << t.label
         << "\", \"t\": " << JsonNumber(t.metres) << ", \"accuracy\": " << JsonNumber(accuracy, 4)
         << ", \"completeness\": " << JsonNumber(completeness, 4)
         << ", \"completeness_textured\": " << JsonNumber(textured, 4)
         << ", \"f_score\": " << JsonNumber(f, 4) << "}";
  }
  std::printf("distance ours -> truth: median %.4g, p90 %.4g; truth -> ours: median %.4g, p90 "
              "%.4g (inf: beyond %.4g)\n",
              Quantile(to_truth, 0.5), Quantile(to_truth, 0.9), Quantile(to_ours, 0.5),
              Quantile(to_ours, 0.9), cap);

  std::ostringstream json;
  json << "{\n  \"mode\": \"synth\", \"cloud\": \"" << args.cloud_path << "\", \"our_points\": "
       << ours.size() << ", \"true_points\": " << truth.points.size()
       << ", \"true_points_textured\": " << num_textured << ", \"true_pixels\": " << truth.num_pixels
       << ", \"voxel\": " << JsonNumber(voxel) << ", \"median_true_depth\": " << JsonNumber(median_depth)
       << ",\n  \"aligned\": " << (aligned ? "true" : "false");
  if (aligned) {
    json << ", \"scale\": " << JsonNumber(aligned->evaluation.true_from_model.scale, 9)
         << ", \"median_position_error\": " << JsonNumber(aligned->evaluation.median_position_error);
  }
  json << ",\n  \"to_truth_median\": " << JsonNumber(Quantile(to_truth, 0.5))
       << ", \"to_truth_p90\": " << JsonNumber(Quantile(to_truth, 0.9))
       << ", \"to_ours_median\": " << JsonNumber(Quantile(to_ours, 0.5))
       << ", \"to_ours_p90\": " << JsonNumber(Quantile(to_ours, 0.9))
       << ",\n  \"thresholds\": [" << rows.str() << "\n  ]\n}\n";
  WriteTextFile(args.json_path, json.str());
  return 0;
}

// ---------------------------------------------------------------------------------------
// reference

struct CloudComparison {
  std::vector<double> distances;  // each of ours to the nearest reference point
  Eigen::Vector3d mean_offset = Eigen::Vector3d::Zero();  // mean (nearest reference - ours)
  double coverage = 0;            // share of reference points within the coverage distance
};

CloudComparison Compare(const std::vector<Eigen::Vector3d>& ours,
                        const std::vector<Eigen::Vector3d>& reference,
                        const PointKdTree& reference_tree, double coverage_m, int threads) {
  CloudComparison c;
  std::vector<int> nearest;
  c.distances = NearestDistances(reference_tree, ours, kInfinity, threads, &nearest);
  for (size_t i = 0; i < ours.size(); ++i) c.mean_offset += reference[nearest[i]] - ours[i];
  c.mean_offset /= static_cast<double>(ours.size());
  c.coverage = ShareWithin(NearestDistances(PointKdTree(ours), reference, coverage_m, threads),
                           coverage_m);
  return c;
}

std::string ComparisonJson(const CloudComparison& c, double coverage_m) {
  double sum = 0;
  for (double d : c.distances) sum += d;
  std::ostringstream out;
  out << "\"c2c_median_m\": " << JsonNumber(Quantile(c.distances, 0.5), 4)
      << ", \"c2c_p90_m\": " << JsonNumber(Quantile(c.distances, 0.9), 4)
      << ", \"c2c_mean_m\": " << JsonNumber(sum / c.distances.size(), 4)
      << ", \"within_0_5_m\": " << JsonNumber(ShareWithin(c.distances, 0.5), 4)
      << ", \"within_1_m\": " << JsonNumber(ShareWithin(c.distances, 1), 4)
      << ", \"within_2_m\": " << JsonNumber(ShareWithin(c.distances, 2), 4)
      << ", \"mean_offset_to_reference_m\": [" << JsonNumber(c.mean_offset.x(), 4) << ", "
      << JsonNumber(c.mean_offset.y(), 4) << ", " << JsonNumber(c.mean_offset.z(), 4) << "]"
      << ", \"coverage\": " << JsonNumber(c.coverage, 4)
      << ", \"coverage_m\": " << JsonNumber(coverage_m);
  return out.str();
}

void PrintComparison(const char* label, const CloudComparison& c, double coverage_m) {
  std::printf("%-12s C2C median %.3f m, p90 %.3f m; within 0.5/1/2 m: %.1f/%.1f/%.1f%%; mean "
              "offset to reference (E, N, U) %.3f, %.3f, %.3f m; reference within %.3g m of "
              "ours: %.2f%%\n",
              label, Quantile(c.distances, 0.5), Quantile(c.distances, 0.9),
              100 * ShareWithin(c.distances, 0.5), 100 * ShareWithin(c.distances, 1),
              100 * ShareWithin(c.distances, 2), c.mean_offset.x(), c.mean_offset.y(),
              c.mean_offset.z(), coverage_m, 100 * c.coverage);
}

struct RigidFit {
  Sim3d reference_from_ours;  // scale 1
  int iterations = 0;
  int pairs = 0;
  double gate_m = 0;
};

// Point-to-point ICP (Besl and McKay 1992) from the identity, each step a least-squares
// rigid transform (Umeyama without scale) of the kept pairs.
RigidFit FitRigid(const std::vector<Eigen::Vector3d>& ours,
                  const std::vector<Eigen::Vector3d>& reference, const PointKdTree& reference_tree,
                  int max_iterations, double max_pair_m, int sample_size, int threads) {
  std::vector<Eigen::Vector3d> sample;
  const size_t step = std::max<size_t>(1, ours.size() / std::max(1, sample_size));
  for (size_t i = 0; i < ours.size(); i += step) sample.push_back(ours[i]);
  RigidFit fit;
  std::vector<Eigen::Vector3d> moved(sample.size());
  for (fit.iterations = 1; fit.iterations <= max_iterations; ++fit.iterations) {
    for (size_t i = 0; i < sample.size(); ++i) moved[i] = fit.reference_from_ours * sample[i];
    std::vector<int> nearest;
    const std::vector<double> distances =
        NearestDistances(reference_tree, moved, kInfinity, threads, &nearest);
    fit.gate_m = std::max(max_pair_m, 3 * Quantile(distances, 0.5));
    std::vector<Eigen::Vector3d> src, dst;
    for (size_t i = 0; i < sample.size(); ++i) {
      if (distances[i] > fit.gate_m) continue;
      src.push_back(sample[i]);
      dst.push_back(reference[nearest[i]]);
    }
    fit.pairs = static_cast<int>(src.size());
    Sim3d next;
    if (!EstimateSimilarityUmeyama(src, dst, &next, /*estimate_scale=*/false)) break;
    const double rotation_change =
        Eigen::AngleAxisd(next.rotation * fit.reference_from_ours.rotation.conjugate()).angle();
    const double translation_change = (next.translation - fit.reference_from_ours.translation).norm();
    fit.reference_from_ours = next;
    if (rotation_change < 1e-7 && translation_change < 1e-5) break;
  }
  fit.iterations = std::min(fit.iterations, max_iterations);
  return fit;
}

struct ReferenceArgs {
  std::string ours_path, reference_path, json_path;
  double coverage_m = 0.25;
  int icp_iterations = 30;
  double icp_max_pair_m = 2;
  int icp_sample = 200000;
  int threads = 0;
};

int RunReference(const ReferenceArgs& args) {
  const LasPointCloud ours_las = ReadLasFile(args.ours_path);
  const LasPointCloud reference_las = ReadLasFile(args.reference_path);
  PROJ_REQUIRE(ours_las.epsg == reference_las.epsg,
               "CRS differ: '" << args.ours_path << "' EPSG:" << ours_las.epsg << ", '"
                               << args.reference_path << "' EPSG:" << reference_las.epsg);
  PROJ_REQUIRE(!ours_las.positions.empty() && !reference_las.positions.empty(),
               "a cloud is empty");
  // Both about the reference's centroid, so that the fit's rotation turns about the site and
  // no digit is lost to UTM's millions of metres.
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  for (const auto& p : reference_las.positions) origin += p;
  origin /= static_cast<double>(reference_las.positions.size());
  std::vector<Eigen::Vector3d> ours, reference;
  for (const auto& p : ours_las.positions) ours.push_back(p - origin);
  for (const auto& p : reference_las.positions) reference.push_back(p - origin);
  const PointKdTree reference_tree(reference);

  const CloudComparison before = Compare(ours, reference, reference_tree, args.coverage_m, args.threads);
  const RigidFit fit = FitRigid(ours, reference, reference_tree, args.icp_iterations,
                                args.icp_max_pair_m, args.icp_sample, args.threads);
  std::vector<Eigen::Vector3d> moved;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (const auto& p : ours) {
    moved.push_back(fit.reference_from_ours * p);
    centroid += p;
  }
  centroid /= static_cast<double>(ours.size());
  const CloudComparison after = Compare(moved, reference, reference_tree, args.coverage_m, args.threads);
  // The fit as a shift of our cloud's centroid and a rotation about it.
  const Eigen::Vector3d shift = fit.reference_from_ours * centroid - centroid;
  const double rotation_deg =
      Eigen::AngleAxisd(fit.reference_from_ours.rotation).angle() * 180.0 / M_PI;

  std::printf("ours %zu points, reference %zu points, EPSG:%d (vertical: ours %d, reference %d)\n",
              ours.size(), reference.size(), ours_las.epsg, ours_las.vertical_epsg,
              reference_las.vertical_epsg);
  PrintComparison("as is:", before, args.coverage_m);
  std::printf("rigid fit:   %d iterations, %d pairs (gate %.3g m): shift of our centroid (E, N, "
              "U) %.3f, %.3f, %.3f m (%.3f m), rotation %.4f deg\n",
              fit.iterations, fit.pairs, fit.gate_m, shift.x(), shift.y(), shift.z(), shift.norm(),
              rotation_deg);
  PrintComparison("after fit:", after, args.coverage_m);

  std::ostringstream json;
  json << "{\n  \"crs\": \"EPSG:" << ours_las.epsg << "\", \"our_points\": " << ours.size()
       << ", \"reference_points\": " << reference.size() << ",\n  " << ComparisonJson(before, args.coverage_m)
       << ",\n  \"fit\": {\"iterations\": " << fit.iterations << ", \"pairs\": " << fit.pairs
       << ", \"gate_m\": " << JsonNumber(fit.gate_m, 4) << ", \"shift_m\": ["
       << JsonNumber(shift.x(), 4) << ", " << JsonNumber(shift.y(), 4) << ", "
       << JsonNumber(shift.z(), 4) << "], \"rotation_deg\": " << JsonNumber(rotation_deg, 4)
       << "},\n  \"after_fit\": {" << ComparisonJson(after, args.coverage_m) << "}\n}\n";
  WriteTextFile(args.json_path, json.str());
  return 0;
}

int Run(int argc, char** argv) {
  CLI::App app{"Dense clouds against a synthetic scene's true surface or a reference cloud"};
  SynthArgs synth;
  CLI::App* synth_app = app.add_subcommand("synth", "A cloud against `sfm synth`'s true surface");
  synth_app->add_option("CLOUD", synth.cloud_path, "The fused cloud (OUT/dense/points.ply)")->required();
  synth_app->add_option("--true-depth", synth.depth_dir, "True depth maps (SYNTH/depth)")->required();
  synth_app->add_option("--gt", synth.gt_dir, "True cameras (SYNTH/gt_dense_cameras)")->required();
  synth_app->add_option("--model", synth.model_dir,
                        "The cloud's COLMAP model (OUT/model): align by its cameras; without it the "
                        "cloud is taken in the truth's frame");
  synth_app->add_option("--images", synth.images_dir, "The rendered photos (SYNTH/images): "
                                                      "completeness on textured surface too");
  synth_app->add_option("--relative", synth.relative, "Thresholds as shares of the median true depth")
      ->capture_default_str();
  synth_app->add_option("--threshold-m", synth.absolute, "Absolute thresholds, truth's units (comma-separated)");
  synth_app->add_option("--stride", synth.stride, "Back-project every n-th pixel of the true maps")
      ->check(CLI::PositiveNumber)->capture_default_str();
  synth_app->add_option("--threads", synth.threads, "Threads (0: all)")->capture_default_str();
  synth_app->add_option("--json", synth.json_path, "Write the figures as JSON");

  ReferenceArgs ref;
  CLI::App* ref_app = app.add_subcommand("reference", "A georeferenced cloud against a reference cloud (LAS)");
  ref_app->add_option("OURS", ref.ours_path, "Our cloud (OUT/dense/points.las)")->required();
  ref_app->add_option("REFERENCE", ref.reference_path, "The reference, uncompressed LAS")->required();
  ref_app->add_option("--coverage-m", ref.coverage_m, "Coverage distance, m")
      ->check(CLI::PositiveNumber)->capture_default_str();
  ref_app->add_option("--icp-iterations", ref.icp_iterations, "Most ICP iterations")
      ->check(CLI::PositiveNumber)->capture_default_str();
  ref_app->add_option("--icp-max-pair-m", ref.icp_max_pair_m, "Smallest pair gate, m")
      ->check(CLI::PositiveNumber)->capture_default_str();
  ref_app->add_option("--icp-sample", ref.icp_sample, "Our points used by the fit (evenly spread)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  ref_app->add_option("--threads", ref.threads, "Threads (0: all)")->capture_default_str();
  ref_app->add_option("--json", ref.json_path, "Write the figures as JSON");
  return RunBenchSubcommands(app, argc, argv,
                             {{synth_app, [&] { return RunSynth(synth); }},
                              {ref_app, [&] { return RunReference(ref); }}});
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Run(argc, argv); });
}
