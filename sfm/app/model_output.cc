#include "sfm/app/model_output.h"

#include <iostream>
#include <sstream>

#include "core/logging.h"
#include "sfm/app/commands.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/pipeline/keypoint_colors.h"

namespace proj::app {

int FinishReconstruction(ReconstructionResult* result, const RunDescription& run,
                         const std::string& out_dir, const std::string& images_dir, int num_threads) {
  if (!result->mapper.success) {
    WriteReport(*result, run, out_dir + "/report.json");
    PROJ_LOG(kError, "no model could be built: " << result->mapper.failure_reason);
    return kExitNoModel;
  }
  Timer timer;
  const ImageSource images({images_dir, result->frames_dir});
  if (images.empty()) {
    PROJ_LOG(kWarning, "no --image-path: the points are written grey");
    for (auto& [id, point] : result->scene.points) point.color.setConstant(128);
  } else {
    ColorPointsFromImages(images, num_threads, &result->scene);
  }
  result->times.Add("colours", timer.ElapsedSeconds());
  WriteReconstructionOutputs(*result, run, out_dir);

  const Scene& scene = result->scene;
  std::ostringstream summary;
  summary << "registered " << scene.NumRegisteredImages() << "/" << scene.images.size() << " images";
  if (!result->skipped.empty()) summary << " (" << result->skipped.size() << " files skipped)";
  summary << ", " << scene.points.size() << " points, mean reprojection error "
          << MeanReprojectionErrorPx(scene) << " px, mean track length " << MeanTrackLength(scene)
          << "\ntimes:";
  for (const auto& [stage, seconds] : result->times.entries()) summary << " " << stage << " " << seconds << " s;";
  summary << "\noutput: " << out_dir << "/points.ply, cameras.ply, model/, report.json, report.html";
  std::cout << summary.str() << std::endl;
  for (const auto& image : scene.images) {
    if (!image.registered) PROJ_LOG(kWarning, "not registered: '" << image.name << "'");
  }
  return kExitSuccess;
}

}  // namespace proj::app
