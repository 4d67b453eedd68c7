#include "sfm/ba/schur_pcg_gpu.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "core/check.h"
#include "core/timer.h"
#include "sfm/ba/ba_problem.h"
#include "sfm/ba/lm_solver.h"

namespace proj {
namespace {

// The solver of one device, with its own lock, so solves on different devices do not wait
// for each other.
struct DeviceSolver {
  std::mutex mutex;
  std::unique_ptr<cuda::BundleAdjusterGpu> gpu;  // made on the first solve on the device
};

// The per-device solvers of the process. Never destroyed by a static destructor: an exit
// handler frees the solvers instead. Registered after the CUDA runtime started (the first
// solver's constructor started it), the handler runs before the runtime's teardown, so the
// device memory is released while CUDA still can (compute-sanitizer's leak check counts memory
// left at exit).
struct DeviceSolvers {
  std::mutex mutex;
  std::map<int, DeviceSolver> by_device;  // a map: references stay valid as devices are added
  bool exit_handler_registered = false;
};

DeviceSolvers& Registry() {
  static DeviceSolvers* const registry = new DeviceSolvers;
  return *registry;
}

void FreeDeviceSolvers() {
  DeviceSolvers& registry = Registry();
  const std::lock_guard<std::mutex> lock(registry.mutex);
  for (auto& [device, solver] : registry.by_device) solver.gpu.reset();
}

void RegisterExitHandlerOnce() {
  DeviceSolvers& registry = Registry();
  const std::lock_guard<std::mutex> lock(registry.mutex);
  if (registry.exit_handler_registered) return;
  registry.exit_handler_registered = true;
  std::atexit(FreeDeviceSolvers);
}

DeviceSolver& SolverOfDevice(int device) {
  DeviceSolvers& registry = Registry();
  const std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.by_device[device];
}

}  // namespace

cuda::BaSolverSummary SolveBaProblemGpu(const cuda::BaSolverOptions& options,
                                        cuda::BaProblem* problem, cuda::BundleAdjusterGpu* gpu) {
  PROJ_CHECK(problem != nullptr && gpu != nullptr, "problem or GPU solver is null");
  const Timer timer;
  options.Check();
  problem->Check();  // before MakeBaLayout, which indexes by the problem's indices
  gpu->Load(options, *problem, MakeBaLayout(*problem));
  cuda::BaSolverSummary summary = RunLevenbergMarquardt(options, gpu);
  gpu->Download(problem);
  summary.time_s = timer.ElapsedSeconds();
  return summary;
}

cuda::BaSolverSummary SolveBaProblemGpu(const cuda::BaSolverOptions& options,
                                        cuda::BaProblem* problem, int device) {
  DeviceSolver& solver = SolverOfDevice(device);
  const std::lock_guard<std::mutex> lock(solver.mutex);
  if (solver.gpu == nullptr) {
    solver.gpu = std::make_unique<cuda::BundleAdjusterGpu>(device);
    RegisterExitHandlerOnce();
  }
  return SolveBaProblemGpu(options, problem, solver.gpu.get());
}

}  // namespace proj
