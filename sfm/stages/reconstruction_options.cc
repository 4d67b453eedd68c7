#include "sfm/stages/reconstruction_options.h"

#include "core/check.h"
#include "cuda/device_selection.h"

namespace proj {

void ReconstructionOptions::Check() const {
  PROJ_REQUIRE(run.num_threads >= 0, "--threads must be >= 0 (got " << run.num_threads << ")");
  SelectGpus(run.device, run.gpus);  // --gpus naming GPUs that are not there: refused before any work
  video.Check();
  if (correspondences == CorrespondenceSource::kKltTracks) klt.Check();
  if (correspondences == CorrespondenceSource::kDescriptors || keyframe_sift.enabled) {
    extraction.Check();
  }
  cameras.Check();
  keyframe_sift.Check();
  PROJ_REQUIRE(!keyframe_sift.enabled || correspondences == CorrespondenceSource::kKltTracks,
               "--klt-keyframe-sift needs --matcher klt");
  pair_selection.Check();
  matching.Check();
  two_view.Check();
  mapper.Check();
  keyframes.Check();
  loop_closure.Check();
  georeference.Check();
  ground_control.Check();
  quality.Check();
  global_mapper.Check();
  partitioning.Check();
  auto_mapper.Check();
  components.Check();
  if (ba_solver == BaSolverChoice::kGpu) UseGpu(ComputeDevice::kGpu, "--ba-solver gpu");
  PROJ_REQUIRE(max_chunk_images >= 2, "--max-chunk-images must be >= 2 (got " << max_chunk_images << ")");
}

ReconstructionOptions ReconstructionOptions::Resolve() const {
  ReconstructionOptions resolved = *this;
  // The device decision, made once for every stage: auto becomes the CPU or the GPU here.
  resolved.run.device = ResolveComputeDevice(run.device);
  const ComputeDevice device = resolved.run.device;
  resolved.extraction.features.device = device;
  resolved.matching.device = device;
  resolved.extraction.features.gpus = run.gpus;
  resolved.matching.gpus = run.gpus;
  resolved.klt.sequence.device = device;
  resolved.extraction.features.num_threads = run.num_threads;
  resolved.extraction.num_threads = run.num_threads;
  resolved.matching.num_threads = run.num_threads;
  resolved.klt.num_threads = run.num_threads;
  resolved.mapper.num_threads = run.num_threads;
  resolved.two_view.seed = run.seed;
  resolved.mapper.seed = run.seed;
  // Bundle adjustment: the mapper's adjustments run on the GPU (its solver kAuto) when asked,
  // else on its CPU solvers.
  const bool device_is_gpu = device == ComputeDevice::kGpu;
  using Solver = BundleAdjustmentOptions::Solver;
  if (ba_solver == BaSolverChoice::kGpu || (ba_solver == BaSolverChoice::kAuto && device_is_gpu)) {
    resolved.mapper.global_ba_solver = resolved.mapper.local_ba_solver = Solver::kAuto;
  } else if (ba_solver == BaSolverChoice::kCeres || ba_solver == BaSolverChoice::kCpu) {
    resolved.mapper.global_ba_solver = resolved.mapper.local_ba_solver =
        ba_solver == BaSolverChoice::kCeres ? Solver::kCeres : Solver::kCpu;
  }
  resolved.loop_closure.retrieval.seed = run.seed;
  resolved.loop_closure.retrieval.num_threads = run.num_threads;
  resolved.klt.max_image_size = extraction.max_image_size;
  resolved.klt.decode = extraction.decode;
  return resolved;
}

}  // namespace proj
