// Bundle adjustment benchmark: for each problem, Ceres (RunBundleAdjustment, all threads), our
// LM + Schur + PCG solver on the CPU (all threads; then with exact dense-Schur steps) and on
// the GPU, on the same problem (observations, gauge and constants from MakeBaProblem), with
// the same options. Prints the time and the final cost of each, and the cost's relative
// difference to Ceres.
// GPU: one warm-up solve, then the median over --repeats of the device time from the first
// upload to the last download (CUDA events); CPU solvers: median wall time over
// --cpu-repeats and --ceres-repeats.
//
// --model DIR: a model written by `sfm reconstruct` (OUT/model), adjusted as the mapper's final
// bundle adjustment does (Cauchy 1 px, its function tolerance), each point first moved by
// --model-noise times its distance to the scene's first registered camera (seeded), so that
// the solvers start away from the optimum.
//
// --local-sweep: each --model is also adjusted as the incremental mapper's local adjustments
// are, once around each registered image in turn (ConfigForLocal with 6 neighbours, no robust
// loss, 25 iterations), through RunBundleAdjustment with each solver, on its own copy of the
// model: the total time of those calls (problem set-up and, for the GPU, uploads included;
// the GPU solver warmed up by one call first), the sum of their final costs and the largest
// adjustment's observations. This is the per-call overhead that matters for local BA.
//
//   ba_bench [--bal FILE] [--aerial IMAGESxPOINTS]... [--model DIR]... [--repeats N]
//            [--cpu-repeats N] [--ceres-repeats N] [--threads N] [--no-ceres-above OBSERVATIONS]
//            [--pcg-tolerance T] [--pcg-eta E] [--model-noise F] [--local-sweep] [--priors SIGMA]
//
// --priors SIGMA: every problem gets position priors on all images (the centre plus Gaussian
// noise of SIGMA metres, seeded) and focal priors (tests/sfm/ba/ba_test_scenes.h).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/parallel_for.h"
#include "cuda/ba/bundle_adjuster_gpu.h"
#include "cuda/device.h"
#include "sfm/ba/bundle_adjuster.h"
#include "sfm/ba/schur_pcg_cpu.h"
#include "sfm/ba/schur_pcg_gpu.h"
#include "sfm/mapper/mapper_options.h"
#include "sfm/reconstruction_io/colmap_model.h"
#include "tests/sfm/ba/ba_test_scenes.h"
#include "tests/sfm/ba/bal_problem.h"

namespace proj {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double NowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// CPU time of the process, all threads: on a shared machine the load inflates wall times, not
// this.
double CpuS() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

struct Row {
  std::string problem, solver;
  int images = 0, points = 0, observations = 0;
  double time_s = 0, cpu_s = 0, final_cost = 0, initial_cost = 0;
  int iterations = 0, pcg_iterations = 0;
  std::string message;
};

void Print(const Row& row, double ceres_cost) {
  std::printf("%-22s %-12s %6d %8d %9d %10.3f %8.3f %16.8e %16.8e %+10.2e %5d %7d  %s\n",
              row.problem.c_str(), row.solver.c_str(), row.images, row.points, row.observations,
              row.time_s, row.cpu_s, row.initial_cost, row.final_cost,
              ceres_cost > 0 ? (row.final_cost - ceres_cost) / ceres_cost : 0.0, row.iterations,
              row.pcg_iterations, row.message.c_str());
  std::fflush(stdout);
}

struct Settings {
  int repeats = 3;
  int cpu_repeats = 1;
  int ceres_repeats = 1;
  int threads = 0;
  long no_ceres_above = 5000000;
  double pcg_tolerance = 1e-6;
  double pcg_eta = 0.1;
  bool verbose = false;  // Ceres' full report (time per phase) to the log
  double prior_sigma_m = 0;  // > 0: position and focal priors (AddPriorsForTest)
};

void Bench(const std::string& name, const Scene& scene, BundleAdjustmentOptions options,
           const Settings& settings) {
  options.num_threads = settings.threads;
  options.pcg_relative_tolerance = settings.pcg_tolerance;
  options.pcg_eta = settings.pcg_eta;
  options.verbose = settings.verbose;
  BundleAdjustmentConfig config = ConfigForGlobal(scene);
  if (settings.prior_sigma_m > 0) testing::AddPriorsForTest(scene, settings.prior_sigma_m, 1, &config);
  cuda::BaSolverOptions solver_options;
  const cuda::BaProblem problem = MakeBaProblem(options, config, scene, &solver_options);
  Row base;
  base.problem = name;
  base.images = problem.num_images();
  base.points = problem.num_points();
  base.observations = problem.num_observations();

  double ceres_cost = 0;
  if (base.observations <= settings.no_ceres_above) {
    Row row = base;
    row.solver = "ceres";
    std::vector<double> times, cpu;
    for (int r = 0; r < settings.ceres_repeats; ++r) {
      Scene copy = scene;
      options.solver = BundleAdjustmentOptions::Solver::kCeres;
      const double cpu_start = CpuS();
      const BundleAdjustmentSummary summary = RunBundleAdjustment(options, config, &copy);
      cpu.push_back(CpuS() - cpu_start);
      times.push_back(summary.time_s);
      row.initial_cost = summary.initial_cost;
      row.final_cost = summary.final_cost;
      row.iterations = summary.num_iterations;
      row.message = summary.message;
    }
    row.time_s = Median(times);
    row.cpu_s = Median(cpu);
    ceres_cost = row.final_cost;
    Print(row, ceres_cost);
  }
  // Our CPU solver with PCG steps (the GPU solver's twin), then with exact dense-Schur steps.
  for (const bool dense : {false, true}) {
    Row row = base;
    row.solver = dense ? "lm-dense-cpu" : "lm-pcg-cpu";
    cuda::BaSolverOptions cpu_options = solver_options;
    cpu_options.dense_schur = dense;
    std::vector<double> times, cpu;
    for (int r = 0; r < settings.cpu_repeats; ++r) {
      cuda::BaProblem copy = problem;
      const double start = NowS(), cpu_start = CpuS();
      const cuda::BaSolverSummary summary = SolveBaProblemCpu(cpu_options, &copy);
      times.push_back(NowS() - start);
      cpu.push_back(CpuS() - cpu_start);
      row.initial_cost = summary.initial_cost;
      row.final_cost = summary.final_cost;
      row.iterations = summary.num_iterations;
      row.pcg_iterations = summary.num_pcg_iterations;
      row.message = summary.message;
    }
    row.time_s = Median(times);
    row.cpu_s = Median(cpu);
    Print(row, ceres_cost);
  }
  if (cuda::DeviceAvailable()) {
    Row row = base;
    row.solver = "lm-pcg-gpu";
    cuda::BundleAdjusterGpu gpu;
    std::vector<double> device_ms, wall_s;
    for (int r = 0; r < settings.repeats + 1; ++r) {
      cuda::BaProblem copy = problem;
      const cuda::BaSolverSummary summary = SolveBaProblemGpu(solver_options, &copy, &gpu);
      if (r == 0) continue;  // warm-up: module load, allocations
      device_ms.push_back(gpu.last_solve_ms());
      wall_s.push_back(summary.time_s);
      row.initial_cost = summary.initial_cost;
      row.final_cost = summary.final_cost;
      row.iterations = summary.num_iterations;
      row.pcg_iterations = summary.num_pcg_iterations;
      row.message = summary.message;
    }
    row.time_s = Median(device_ms) / 1000;
    row.message += " (wall " + std::to_string(Median(wall_s)) + " s)";
    Print(row, ceres_cost);
  }
}

// The local sweep of --local-sweep, one row per solver.
void LocalSweep(const std::string& name, const Scene& scene, const Settings& settings) {
  using Solver = BundleAdjustmentOptions::Solver;
  std::vector<int> images;
  for (size_t i = 0; i < scene.images.size(); ++i) {
    if (scene.images[i].registered) images.push_back(static_cast<int>(i));
  }
  BundleAdjustmentOptions options;
  options.loss = BundleAdjustmentOptions::LossType::kTrivial;
  options.max_iterations = 25;
  options.num_threads = settings.threads;
  options.update_point_errors = false;
  std::vector<std::pair<Solver, std::string>> solvers = {{Solver::kCeres, "ceres"},
                                                         {Solver::kCpu, "lm-pcg-cpu"}};
  if (cuda::DeviceAvailable()) solvers.emplace_back(Solver::kGpu, "lm-pcg-gpu");
  for (const auto& [solver, solver_name] : solvers) {
    options.solver = solver;
    Scene copy = scene;
    if (solver == Solver::kGpu) {  // warm-up: the process-wide GPU solver, module load
      Scene warm = scene;
      RunBundleAdjustment(options, ConfigForLocal(warm, images.front(), 6), &warm);
    }
    Row row;
    row.problem = name + " local x" + std::to_string(images.size());
    row.solver = solver_name;
    row.images = static_cast<int>(images.size());
    const double start = NowS(), cpu_start = CpuS();
    for (int image_id : images) {
      const BundleAdjustmentSummary summary =
          RunBundleAdjustment(options, ConfigForLocal(copy, image_id, 6), &copy);
      row.observations = std::max(row.observations, summary.num_observations);
      row.initial_cost += summary.initial_cost;
      row.final_cost += summary.final_cost;
      row.iterations += summary.num_iterations;
    }
    row.time_s = NowS() - start;
    row.cpu_s = CpuS() - cpu_start;
    row.message = "sums over the adjustments; obs: the largest";
    Print(row, 0);
  }
}

// The model in `dir` with each point moved by `noise` times its distance to the first
// registered camera, in a random direction (seed 1).
Scene PerturbedModel(const std::string& dir, double noise) {
  Scene scene = ReadColmapModel(dir);
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  for (const SceneImage& image : scene.images) {
    if (!image.registered) continue;
    center = image.cam_from_world.Center();
    break;
  }
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal;
  for (auto& [id, point] : scene.points) {
    const Eigen::Vector3d direction =
        Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
    point.position += noise * (point.position - center).norm() * direction;
  }
  return scene;
}

int Main(int argc, char** argv) {
  CLI::App app{"Bundle adjustment benchmark: Ceres vs LM-PCG on CPU and GPU"};
  std::string bal;
  std::vector<std::string> rings, models;
  double model_noise = 1e-3;
  Settings settings;
  app.add_option("--bal", bal, "BAL problem file");
  app.add_option("--aerial", rings, "generated aerial grid scene IMAGESxPOINTS (repeatable)");
  app.add_option("--model", models, "model folder written by sfm reconstruct (repeatable)");
  app.add_option("--model-noise", model_noise, "relative point perturbation of --model");
  app.add_option("--repeats", settings.repeats, "repeats of the GPU solver (median)");
  app.add_option("--cpu-repeats", settings.cpu_repeats, "repeats of our CPU solver (median)");
  app.add_option("--ceres-repeats", settings.ceres_repeats, "repeats of Ceres (median)");
  app.add_option("--threads", settings.threads, "CPU threads (0: all)");
  app.add_option("--no-ceres-above", settings.no_ceres_above,
                 "skip Ceres for problems with more observations");
  app.add_option("--pcg-tolerance", settings.pcg_tolerance, "PCG relative tolerance");
  app.add_option("--pcg-eta", settings.pcg_eta, "PCG truncated-Newton eta (0: off)");
  app.add_flag("--verbose", settings.verbose, "per-iteration progress and Ceres' full report");
  app.add_option("--priors", settings.prior_sigma_m,
                 "position priors (each centre plus Gaussian noise of this sigma, metres) on "
                 "every image and focal priors on every camera, as GPS and EXIF give");
  bool local_sweep = false;
  app.add_flag("--local-sweep", local_sweep,
               "also time each --model's local adjustments around every image, per solver");
  if (const auto exit_code = ParseBenchArguments(app, argc, argv)) return *exit_code;

  std::printf("device: %s; CPU threads: %d\n", cuda::DeviceDescription().c_str(),
              ResolveNumThreads(settings.threads));
  std::printf("%-22s %-12s %6s %8s %9s %10s %8s %16s %16s %10s %5s %7s  %s\n", "problem",
              "solver", "images", "points", "obs", "time_s", "cpu_s", "initial_cost", "final_cost", "vs_ceres",
              "iters", "pcg", "message");
  if (!bal.empty()) {
    BundleAdjustmentOptions options;
    options.loss = BundleAdjustmentOptions::LossType::kHuber;
    options.loss_scale_px = 2.0;
    const std::string name = bal.substr(bal.find_last_of('/') + 1);
    Bench(name, testing::LoadBalProblem(bal), options, settings);
  }
  for (const std::string& ring : rings) {
    const size_t x = ring.find('x');
    if (x == std::string::npos) {
      std::fprintf(stderr, "bad --aerial '%s' (want IMAGESxPOINTS)\n", ring.c_str());
      return 2;
    }
    const int images = std::stoi(ring.substr(0, x)), points = std::stoi(ring.substr(x + 1));
    BundleAdjustmentOptions options;
    options.loss = BundleAdjustmentOptions::LossType::kCauchy;
    options.loss_scale_px = 1.0;
    Bench("aerial-" + ring, testing::MakeAerialGridScene(images, points, 0.5, 1), options, settings);
  }
  for (const std::string& dir : models) {
    const IncrementalMapperOptions mapper;
    BundleAdjustmentOptions options;
    options.loss = BundleAdjustmentOptions::LossType::kCauchy;
    options.max_iterations = mapper.global_ba_max_iterations;
    options.function_tolerance = mapper.final_ba_function_tolerance;
    options.refine_principal_point = mapper.principal_point == IncrementalMapperOptions::PrincipalPoint::kOn;
    const std::string name = dir.size() > 22 ? dir.substr(dir.size() - 22) : dir;
    const Scene scene = PerturbedModel(dir, model_noise);
    Bench(name, scene, options, settings);
    if (local_sweep) LocalSweep(name, scene, settings);
  }
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Main(argc, argv); });
}
