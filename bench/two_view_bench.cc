// Two-view verification benchmark (CPU, one thread): time per pair of EstimateTwoViewGeometry
// and the accuracy of its relative pose against ground truth, on synthetic pairs of known
// geometry (general, planar, pure rotation, wrong focal prior; 2,000 matches, 10% outliers)
// and, with --strecha, on SIFT pairs of a Strecha scene (OpenCV SIFT, RootSIFT ratio 0.8 and
// cross-check, priors from the ground-truth K). Times are the thread's CPU time (other work on
// a shared machine inflates wall time), the fastest of the repeats of each pair, then the mean
// over the pairs.
// With --database, the matched pairs of a scene database instead (the pipeline's own input:
// keypoints, matches, cameras), each verified once as the verification stage does (seeded by
// its pair id): CPU ms per pair, verified pairs and their inliers, to compare changes on the
// same matches. --max-pairs takes that many pairs spread evenly over the list.
//
//   two_view_bench [--repeats 5] [--pairs 20] [--strecha DIR] [--images 5] [--features 8000]
//   two_view_bench --database DB [--max-pairs N] [--per-pair FILE] [--seed S]
// --per-pair writes one line per pair (pair id, matches, configuration, inliers, F/E/H
// inliers), to compare two versions pair by pair; --seed (the pipeline's --seed, default 0)
// shows how much of such a difference is RANSAC's own randomness.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "matching/two_view_geometry.h"
#include "sfm/database/scene_database.h"
#include "tests/features/sift_test_support.h"

namespace proj {
namespace {

struct Pair {
  Camera camera1, camera2;
  std::vector<Eigen::Vector2d> keypoints1, keypoints2;
  std::vector<FeatureMatch> matches;
  Rigid3d cam2_from_cam1;  // truth
};

enum class Scene { kGeneral, kPlanar, kRotation, kWrongFocal };

Pair MakeSyntheticPair(Scene scene, int num_points, int num_outliers, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::normal_distribution<double> noise(0, 0.5);
  Pair pair;
  pair.camera1 = Camera::FromFocal(CameraModelId::kSimpleRadial, 1920, 1080, 1600);
  pair.camera2 = pair.camera1;
  // The wrong prior: image 2 was taken zoomed in (focal 2,400 px), its prior says 1,600 px.
  if (scene == Scene::kWrongFocal) pair.camera2.SetFocal(2400);
  const double baseline = scene == Scene::kRotation ? 0.0 : 0.6 + 0.4 * unit(rng);
  const Eigen::Vector3d axis = Eigen::Vector3d(unit(rng), 1.0, unit(rng)).normalized();
  const Eigen::Matrix3d rotation(Eigen::AngleAxisd(0.1 + 0.05 * unit(rng), axis));
  const Eigen::Vector3d centre2(baseline, 0.2 * baseline * unit(rng), 0.2 * baseline * unit(rng));
  pair.cam2_from_cam1 = Rigid3d(rotation, -(rotation * centre2));
  while (static_cast<int>(pair.matches.size()) < num_points) {
    const double depth = scene == Scene::kPlanar ? 8.0 : 8.0 + 3 * unit(rng);
    const Eigen::Vector3d x(4 * unit(rng), 2.5 * unit(rng), depth);
    Eigen::Vector2d uv1, uv2;
    if (!pair.camera1.Project(x, &uv1) || !pair.camera2.Project(pair.cam2_from_cam1 * x, &uv2)) {
      continue;
    }
    if (uv1.x() < 0 || uv1.y() < 0 || uv1.x() > 1920 || uv1.y() > 1080) continue;
    if (uv2.x() < 0 || uv2.y() < 0 || uv2.x() > 1920 || uv2.y() > 1080) continue;
    const int index = static_cast<int>(pair.keypoints1.size());
    pair.keypoints1.push_back(uv1 + Eigen::Vector2d(noise(rng), noise(rng)));
    pair.keypoints2.push_back(uv2 + Eigen::Vector2d(noise(rng), noise(rng)));
    pair.matches.push_back({index, index});
  }
  std::uniform_real_distribution<double> px(0, 1920), py(0, 1080);
  for (int i = 0; i < num_outliers; ++i) {
    const int index = static_cast<int>(pair.keypoints1.size());
    pair.keypoints1.emplace_back(px(rng), py(rng));
    pair.keypoints2.emplace_back(px(rng), py(rng));
    pair.matches.push_back({index, index});
  }
  if (scene == Scene::kWrongFocal) pair.camera2.SetFocal(1600);
  return pair;
}

std::vector<Pair> LoadStrechaPairs(const std::string& folder, int num_images, int max_features) {
  std::vector<std::vector<Eigen::Vector2d>> keypoints;
  std::vector<FeatureSet> features;
  std::vector<testing::StrechaCamera> truth;
  std::vector<Camera> cameras;
  char name[32];
  for (int i = 0; i < num_images; ++i) {
    std::snprintf(name, sizeof(name), "%04d.jpg", i);
    truth.push_back(testing::ReadStrechaCamera(folder + "/gt_dense_cameras/" + name + ".camera"));
    features.push_back(
        testing::ExtractOpenCvSift(testing::LoadGrayJpeg(folder + "/images/" + name), max_features));
    keypoints.emplace_back();
    for (const Keypoint& k : features.back().keypoints) keypoints.back().emplace_back(k.x, k.y);
    const Eigen::Matrix3d& k = truth.back().K;
    Camera camera = Camera::FromFocal(CameraModelId::kPinhole, truth.back().width,
                                      truth.back().height, k(0, 0));
    // Strecha's K puts the top-left pixel centre at (0, 0), ours at (0.5, 0.5).
    camera.params = {k(0, 0), k(1, 1), k(0, 2) + 0.5, k(1, 2) + 0.5};
    cameras.push_back(camera);
    std::fprintf(stderr, "%s: %d features\n", name, features.back().size());
  }
  std::vector<Pair> pairs;
  for (int i = 0; i < num_images; ++i) {
    for (int j = i + 1; j < std::min(num_images, i + 3); ++j) {
      Pair pair;
      pair.camera1 = cameras[i];
      pair.camera2 = cameras[j];
      pair.keypoints1 = keypoints[i];
      pair.keypoints2 = keypoints[j];
      pair.matches = testing::MatchBruteForce(features[i], features[j], 0.8, true);
      // Strecha: x ~ K R^T (X - C), so cam2_from_cam1 = (R2^T R1, R2^T (C1 - C2)).
      pair.cam2_from_cam1 = Rigid3d(Eigen::Matrix3d(truth[j].R.transpose() * truth[i].R),
                                    truth[j].R.transpose() * (truth[i].C - truth[j].C));
      pairs.push_back(std::move(pair));
    }
  }
  return pairs;
}

double ThreadCpuMs() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e3 + now.tv_nsec * 1e-6;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double Max(const std::vector<double>& values) {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

double AngleDeg(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) * 180.0 / M_PI;
}

void Run(const std::string& label, const std::vector<Pair>& pairs, int repeats) {
  double total_ms = 0;
  size_t total_matches = 0, total_inliers = 0;
  std::map<std::string, int> configurations;
  std::vector<double> rotation_errors, translation_errors;
  int num_poses = 0;
  for (size_t p = 0; p < pairs.size(); ++p) {
    const Pair& pair = pairs[p];
    TwoViewGeometryOptions options;
    options.seed = p;
    double fastest_ms = 1e30;
    TwoViewGeometry geometry;
    for (int r = 0; r < repeats; ++r) {
      const double start_ms = ThreadCpuMs();
      geometry = EstimateTwoViewGeometry(options, pair.camera1, pair.keypoints1, pair.camera2,
                                         pair.keypoints2, pair.matches);
      fastest_ms = std::min(fastest_ms, ThreadCpuMs() - start_ms);
    }
    total_ms += fastest_ms;
    total_matches += pair.matches.size();
    total_inliers += geometry.inlier_matches.size();
    ++configurations[TwoViewConfigurationName(geometry.configuration)];
    if (!geometry.has_relative_pose) continue;
    ++num_poses;
    rotation_errors.push_back(
        geometry.cam2_from_cam1.rotation.angularDistance(pair.cam2_from_cam1.rotation) * 180.0 /
        M_PI);
    if (geometry.configuration != TwoViewConfiguration::kPanoramic) {
      translation_errors.push_back(
          AngleDeg(geometry.cam2_from_cam1.translation, pair.cam2_from_cam1.translation));
    }
  }
  std::printf("%-22s %3zu pairs, %5zu matches/pair: %6.2f ms/pair;", label.c_str(), pairs.size(),
              total_matches / std::max<size_t>(1, pairs.size()), total_ms / pairs.size());
  for (const auto& [name, count] : configurations) std::printf(" %s %d", name.c_str(), count);
  std::printf(", %zu inliers", total_inliers);
  std::printf("; poses %d, rotation error median %.3f max %.3f deg, translation %.3f %.3f deg\n",
              num_poses, Median(rotation_errors), Max(rotation_errors),
              Median(translation_errors), Max(translation_errors));
}

// Verifies the matched pairs of a database, one thread, each once.
void RunDatabase(const std::string& path, int max_pairs, const std::string& per_pair_path,
                 uint64_t seed) {
  const SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  std::map<int, Camera> cameras;
  for (const DatabaseCamera& camera : database.ReadCameras()) cameras[camera.camera_id] = camera.camera;
  std::map<int, TwoViewPoints> points;
  for (const DatabaseImage& image : database.ReadImages()) {
    std::vector<Eigen::Vector2d> pixels;
    for (const Keypoint& keypoint : database.ReadKeypoints(image.image_id)) {
      pixels.emplace_back(keypoint.x, keypoint.y);
    }
    points[image.image_id] = MakeTwoViewPoints(cameras.at(image.camera_id), std::move(pixels));
  }
  std::vector<int64_t> pair_ids = database.ReadMatchedPairIds();
  if (max_pairs > 0 && static_cast<int>(pair_ids.size()) > max_pairs) {
    std::vector<int64_t> spread;
    for (int k = 0; k < max_pairs; ++k) spread.push_back(pair_ids[k * pair_ids.size() / max_pairs]);
    pair_ids = std::move(spread);
  }
  TwoViewGeometryOptions options;
  options.seed = seed;
  double total_ms = 0;
  size_t total_matches = 0, total_inliers = 0;
  int num_verified = 0;
  std::map<std::string, int> configurations;
  std::FILE* per_pair = per_pair_path.empty() ? nullptr : std::fopen(per_pair_path.c_str(), "w");
  PROJ_REQUIRE(per_pair_path.empty() || per_pair != nullptr, "cannot write " << per_pair_path);
  for (const int64_t pair_id : pair_ids) {
    const auto [image1, image2] = ImageIdsFromPairId(pair_id);
    const std::vector<FeatureMatch> matches =
        database.ReadMatches(image1, image2).value_or(std::vector<FeatureMatch>());
    const double start_ms = ThreadCpuMs();
    const TwoViewGeometry geometry = EstimateListedPairGeometry(
        options, static_cast<size_t>(pair_id), points.at(image1), points.at(image2), matches);
    total_ms += ThreadCpuMs() - start_ms;
    total_matches += matches.size();
    total_inliers += geometry.inlier_matches.size();
    num_verified += !geometry.inlier_matches.empty();
    ++configurations[TwoViewConfigurationName(geometry.configuration)];
    if (per_pair != nullptr) {
      std::fprintf(per_pair, "%lld %zu %s %zu %d %d %d\n", static_cast<long long>(pair_id),
                   matches.size(), TwoViewConfigurationName(geometry.configuration).c_str(),
                   geometry.inlier_matches.size(), geometry.num_f_inliers, geometry.num_e_inliers,
                   geometry.num_h_inliers);
    }
  }
  if (per_pair != nullptr) std::fclose(per_pair);
  std::printf("database %zu pairs, %zu matches/pair: %.2f ms/pair; %d verified, %zu inliers;",
              pair_ids.size(), total_matches / std::max<size_t>(1, pair_ids.size()),
              total_ms / std::max<size_t>(1, pair_ids.size()), num_verified, total_inliers);
  for (const auto& [name, count] : configurations) std::printf(" %s %d", name.c_str(), count);
  std::printf("\n");
}

int Main(int argc, char** argv) {
  CLI::App app("Two-view verification benchmark");
  int repeats = 5, num_pairs = 20, num_images = 5, max_features = 8000;
  int max_pairs = 0;
  uint64_t seed = 0;
  std::string strecha, database, per_pair;
  app.add_option("--repeats", repeats);
  app.add_option("--pairs", num_pairs, "synthetic pairs per scene");
  app.add_option("--strecha", strecha, "Strecha scene folder (images/, gt_dense_cameras/)");
  app.add_option("--images", num_images, "first images of the Strecha scene");
  app.add_option("--features", max_features);
  app.add_option("--database", database, "scene database: verify its matched pairs instead");
  app.add_option("--max-pairs", max_pairs, "with --database: at most this many pairs (0 = all)");
  app.add_option("--per-pair", per_pair, "with --database: per-pair results into this file");
  app.add_option("--seed", seed, "with --database: RANSAC seed, as sfm's --seed");
  if (const auto exit_code = ParseBenchArguments(app, argc, argv)) return *exit_code;
  if (!database.empty()) {
    RunDatabase(database, max_pairs, per_pair, seed);
    return 0;
  }
  const std::pair<const char*, Scene> scenes[] = {{"synthetic general", Scene::kGeneral},
                                                  {"synthetic planar", Scene::kPlanar},
                                                  {"synthetic rotation", Scene::kRotation},
                                                  {"synthetic wrong focal", Scene::kWrongFocal}};
  for (const auto& [label, scene] : scenes) {
    std::vector<Pair> pairs;
    for (int p = 0; p < num_pairs; ++p) pairs.push_back(MakeSyntheticPair(scene, 1800, 200, p));
    Run(label, pairs, repeats);
  }
  if (!strecha.empty()) Run("strecha", LoadStrechaPairs(strecha, num_images, max_features), repeats);
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Main(argc, argv); });
}
