#include "mvs/dense_reconstruction.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/logging.h"
#include "core/timer.h"
#include "cuda/device_selection.h"
#include "io/atomic_file.h"
#include "mvs/dense_fusion_step.h"
#include "mvs/dense_resume.h"
#include "mvs/dense_undistortion.h"
#include "mvs/dense_workspace.h"
#include "mvs/depth_map_plan.h"
#include "mvs/depth_map_runner.h"

namespace proj::mvs {
namespace {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  if (values.size() % 2 == 1) return values[middle];
  return (values[middle] + *std::max_element(values.begin(), values.begin() + middle)) / 2;
}

void Skip(const std::vector<SkippedDenseImage>& images, DenseSummary* summary) {
  for (const SkippedDenseImage& image : images) {
    PROJ_LOG(kWarning, "dense: no depth map for '" << image.name << "': " << image.reason);
    summary->skipped.push_back(image);
  }
}

}  // namespace

DenseSummary ReconstructDense(const Scene& scene, const ImageSource& images, const std::string& dense_root,
                              const DenseOptions& options) {
  options.Check();
  const Timer total;
  DenseSummary summary;
  summary.workspace = dense_root;
  summary.device = ComputeDeviceSummary(options.device, options.gpus);  // --device gpu without one: refused here
  summary.max_image_size_px = options.max_image_size_px;
  summary.num_images = scene.NumRegisteredImages();
  const DenseWorkspace workspace(dense_root);
  EnsureWritableDirectory(workspace.root());
  ResumeRecord record(workspace.ResumePath());

  Timer step;
  UndistortCameraOptions camera;
  camera.max_image_size_px = options.max_image_size_px;
  const DenseUndistortion undistortion =
      UndistortIntoWorkspace(scene, images, workspace, camera, options.num_threads, &record);
  record.Write();
  summary.num_images_undistorted = undistortion.num_written;
  summary.num_images_undistort_reused = undistortion.num_reused;
  // Logged already by the undistortion; listed for the report.
  summary.skipped = undistortion.skipped;
  summary.undistort_seconds = step.ElapsedSeconds();

  step.Restart();
  const DepthMapPlan plan =
      PlanDepthMaps(undistortion.pinhole, undistortion.image_hashes, workspace, options, record);
  Skip(plan.skipped, &summary);
  PROJ_LOG(kInfo, "dense: " << plan.to_compute.size() << " depth maps to compute on " << summary.device << " ("
                            << plan.reused.size() << " of an earlier run reused)");
  const DepthMapRun run = ComputeDepthMaps(undistortion.pinhole, plan.to_compute, workspace, options, &record);
  Skip(run.skipped, &summary);
  summary.num_depth_maps_computed = static_cast<int>(run.computed.size());
  summary.num_depth_maps_reused = static_cast<int>(plan.reused.size());
  summary.num_gpu_failures = run.num_gpu_failures;
  summary.depth_map_seconds_median = Median(run.seconds);
  summary.depth_map_seconds_total = std::accumulate(run.seconds.begin(), run.seconds.end(), 0.0);
  summary.depth_maps_seconds = step.ElapsedSeconds();

  step.Restart();
  std::vector<int> with_maps = plan.reused;
  with_maps.insert(with_maps.end(), run.computed.begin(), run.computed.end());
  std::sort(with_maps.begin(), with_maps.end());
  DenseFusionSummary fusion;
  summary.cloud = FuseDenseCloud(undistortion.pinhole, workspace, with_maps, plan.sources, options, &fusion);
  summary.num_points = fusion.num_points;
  summary.num_pixels_with_depth = fusion.num_pixels_with_depth;
  summary.num_pixels_kept = fusion.num_pixels_kept;
  summary.fusion_seconds = step.ElapsedSeconds();
  summary.total_seconds = total.ElapsedSeconds();
  return summary;
}

std::string DenseSummaryLine(const DenseSummary& summary) {
  std::ostringstream line;
  const int num_maps = summary.num_depth_maps_computed + summary.num_depth_maps_reused;
  line << "dense: " << num_maps << " depth maps of " << summary.num_images << " images ("
       << summary.num_depth_maps_computed << " computed, " << summary.num_depth_maps_reused << " reused)";
  if (summary.num_depth_maps_computed > 0) {
    line << ", " << summary.depth_map_seconds_median << " s per depth map (median)";
  }
  if (!summary.skipped.empty()) line << ", " << summary.skipped.size() << " images skipped";
  line << ", " << summary.num_points << " points, " << summary.total_seconds << " s in all";
  return line.str();
}

}  // namespace proj::mvs
