#include "mvs/depth_map_runner.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <utility>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "cuda/device_selection.h"
#include "cuda/gpu_fallback.h"
#include "io/atomic_file.h"
#include "mvs/dense_view_cache.h"
#include "mvs/patch_match.h"

namespace proj::mvs {
namespace {
namespace fs = std::filesystem;

// Where one depth map is computed: one GPU, or the CPU (the interface of
// cuda::GpuWithCpuFallback).
class PatchMatchDevice {
 public:
  virtual ~PatchMatchDevice() = default;
  // The maps, and RunPatchMatch's seconds (not the wait for the device).
  virtual std::pair<PatchMatchResult, double> Run(const PatchMatchProblem& problem,
                                                  const PatchMatchOptions& options) = 0;
};

std::pair<PatchMatchResult, double> TimedPatchMatch(const PatchMatchProblem& problem, const PatchMatchOptions& options,
                                                    ComputeDevice device, int num_threads) {
  const Timer timer;
  PatchMatchResult result = RunPatchMatch(problem, options, device, num_threads);
  return {std::move(result), timer.ElapsedSeconds()};
}

class GpuPatchMatch final : public PatchMatchDevice {
 public:
  // GpuError when the device cannot be used (it is then left out).
  explicit GpuPatchMatch(int device) : device_(device) { cuda::SetCurrentDevice(device_); }
  std::pair<PatchMatchResult, double> Run(const PatchMatchProblem& problem,
                                          const PatchMatchOptions& options) override {
    // The calling worker's device for this map: workers are lent whichever GPU is free.
    cuda::SetCurrentDevice(device_);
    return TimedPatchMatch(problem, options, ComputeDevice::kGpu, 0);
  }

 private:
  int device_;
};

class CpuPatchMatch final : public PatchMatchDevice {
 public:
  explicit CpuPatchMatch(int num_threads) : num_threads_(num_threads) {}
  std::pair<PatchMatchResult, double> Run(const PatchMatchProblem& problem,
                                          const PatchMatchOptions& options) override {
    // Workers whose GPUs failed come here together: one map at a time, each on every thread.
    std::lock_guard<std::mutex> lock(mutex_);
    return TimedPatchMatch(problem, options, ComputeDevice::kCpu, num_threads_);
  }

 private:
  int num_threads_;
  std::mutex mutex_;
};

// The views of one depth map, held from its preparation until it is written.
struct LoadedViews {
  std::shared_ptr<const DenseView> reference;
  std::vector<std::shared_ptr<const DenseView>> sources;
  std::string error;  // why they could not be loaded ("" when they were)
};

void WriteRaster(const std::string& path, const FloatRaster& raster) {
  EnsureWritableDirectory(fs::path(path).parent_path().string());  // names may hold sub-folders
  WriteFloatRasterFile(path, raster);
}

// Depth, normals and cost; the geometric maps an earlier photometric map gave are removed.
void WriteMaps(const DenseWorkspace& workspace, const std::string& name, const PatchMatchResult& result) {
  WriteRaster(workspace.DepthMapPath(name, MapKind::kPhotometric), result.depth.raster());
  WriteRaster(workspace.NormalMapPath(name, MapKind::kPhotometric), result.normals.raster());
  WriteRaster(workspace.CostMapPath(name, MapKind::kPhotometric), result.cost);
  std::error_code ignored;
  fs::remove(workspace.DepthMapPath(name, MapKind::kGeometric), ignored);
  fs::remove(workspace.NormalMapPath(name, MapKind::kGeometric), ignored);
  fs::remove(workspace.CostMapPath(name, MapKind::kGeometric), ignored);
}

}  // namespace

DepthMapRun ComputeDepthMaps(const Scene& pinhole, const std::vector<DepthMapTask>& tasks,
                             const DenseWorkspace& workspace, const DenseOptions& options, ResumeRecord* record) {
  DepthMapRun run;
  if (tasks.empty()) return run;
  // The lines of the maps about to be rewritten go first: a run killed while it writes them
  // must not leave a line vouching for maps that no longer match it.
  for (const DepthMapTask& task : tasks) record->Erase(ResumeKind::kPhotometricMaps, pinhole.images[task.image_id].name);
  record->Write();
  const std::vector<int> devices = SelectGpus(options.device, options.gpus);
  auto make_cpu = [&options]() -> std::unique_ptr<PatchMatchDevice> {
    return std::make_unique<CpuPatchMatch>(options.num_threads);
  };
  std::unique_ptr<PatchMatchDevice> cpu_only;
  std::unique_ptr<cuda::GpuWithCpuFallback<PatchMatchDevice>> gpus;
  if (devices.empty()) {
    cpu_only = make_cpu();
  } else {
    gpus = std::make_unique<cuda::GpuWithCpuFallback<PatchMatchDevice>>(
        "depth maps", devices, [](int device) { return std::make_unique<GpuPatchMatch>(device); }, make_cpu);
  }
  std::atomic<int> num_gpu_failures{0};
  auto compute = [&](const PatchMatchProblem& problem) -> std::pair<PatchMatchResult, double> {
    if (cpu_only) return cpu_only->Run(problem, options.patch_match);
    return gpus->Run(
        [&](PatchMatchDevice& gpu) {
          try {
            return gpu.Run(problem, options.patch_match);
          } catch (const cuda::GpuError&) {
            ++num_gpu_failures;
            throw;
          }
        },
        [&](PatchMatchDevice& cpu) { return cpu.Run(problem, options.patch_match); });
  };

  DenseViewCache cache(pinhole, workspace.ImagesDir(), static_cast<size_t>(options.cache_size_mb) << 20,
                       /*with_colour=*/false);
  std::vector<LoadedViews> loaded(tasks.size());
  std::mutex run_mutex;  // guards `run`
  // Two workers per GPU: while one computes on a GPU, the other writes its last maps and
  // waits for the GPU (GpuWithCpuFallback lends each GPU to one caller at a time).
  const int num_workers = std::max<int>(1, 2 * static_cast<int>(devices.size()));
  Progress progress("computing depth maps", static_cast<int>(tasks.size()), "images");
  PipelinedFor(
      static_cast<int>(tasks.size()), num_workers, /*max_waiting=*/num_workers,
      [&](int k) {
        ThrowIfInterrupted();
        LoadedViews& views = loaded[k];
        const std::vector<int>& sources = tasks[k].source_ids;
        views.sources.resize(sources.size());
        try {
          // Images not cached yet are decoded in parallel (the GPUs wait for this thread).
          const int count = static_cast<int>(sources.size()) + 1;
          ParallelFor(0, count, std::min(count, ResolveNumThreads(options.num_threads)), [&](int v, int) {
            if (v == 0) {
              views.reference = cache.Get(tasks[k].image_id);
            } else {
              views.sources[v - 1] = cache.Get(sources[v - 1]);
            }
          });
        } catch (const InputError& error) {
          views = LoadedViews{};
          views.error = error.what();
        }
      },
      [&](int k, int) {
        const DepthMapTask& task = tasks[k];
        const std::string& name = pinhole.images[task.image_id].name;
        LoadedViews views = std::move(loaded[k]);
        if (!views.error.empty()) {
          PROJ_LOG(kWarning, "dense: no depth map for '" << name << "': " << views.error);
          std::lock_guard<std::mutex> lock(run_mutex);
          run.skipped.push_back({name, views.error});
          progress.Advance();
          return;
        }
        PatchMatchProblem problem;
        problem.reference = views.reference.get();
        for (const auto& source : views.sources) problem.sources.push_back(source.get());
        problem.depth_min = task.depth_range.min;
        problem.depth_max = task.depth_range.max;
        problem.seeds = task.seeds;
        problem.image_seed = static_cast<uint32_t>(task.image_id);
        const auto [result, seconds] = compute(problem);
        WriteMaps(workspace, name, result);
        record->Set(ResumeKind::kPhotometricMaps, name, task.inputs_hash);
        record->Write();
        PROJ_LOG(kDebug, "depth map of '" << name << "': " << seconds << " s, " << views.sources.size()
                                          << " source images");
        {
          std::lock_guard<std::mutex> lock(run_mutex);
          run.computed.push_back(task.image_id);
          run.seconds.push_back(seconds);
        }
        progress.Advance();
      });
  run.num_gpu_failures = num_gpu_failures.load();
  return run;
}

}  // namespace proj::mvs
