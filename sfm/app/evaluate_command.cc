#include <iomanip>
#include <iostream>
#include <memory>

#include "sfm/app/commands.h"
#include "sfm/reconstruction_io/colmap_model.h"
#include "sfm/scene/evaluation.h"

namespace proj::app {

CommandRunner AddEvaluateCommand(CLI::App& app) {
  auto model_dir = std::make_shared<std::string>();
  auto gt_dir = std::make_shared<std::string>();
  auto per_image = std::make_shared<bool>(false);
  app.add_option("MODEL_DIR", *model_dir,
                 "COLMAP model folder (OUT_DIR/model), text (cameras.txt, ...) or binary "
                 "(cameras.bin, ...); the text model is read when both are there")
      ->required();
  app.add_option("--gt", *gt_dir, "Folder of ground-truth NAME.camera files (Strecha format)")
      ->required();
  app.add_flag("--per-image", *per_image, "Also print each camera's errors");
  return [=]() {
    const Scene model = ReadColmapModel(*model_dir);
    const PoseEvaluation e = EvaluateAgainstGroundTruth(model, *gt_dir);
    std::cout << std::fixed << std::setprecision(2);
    std::cout << "registered: " << e.num_registered << "/" << e.num_ground_truth << "\n";
    std::cout << "position error (mm, ground truth in metres): median "
              << 1000 * e.median_position_error << ", mean " << 1000 * e.mean_position_error
              << ", max " << 1000 * e.max_position_error << "\n";
    std::cout << std::setprecision(4) << "rotation error (deg): median "
              << e.median_rotation_error_deg << ", max " << e.max_rotation_error_deg << "\n";
    if (*per_image) {
      for (const auto& c : e.errors) {
        std::cout << "  " << c.name << ": " << std::setprecision(2) << 1000 * c.position_error
                  << " mm, " << std::setprecision(4) << c.rotation_error_deg << " deg\n";
      }
    }
    return e.num_registered == e.num_ground_truth ? kExitSuccess : kExitNoModel;
  };
}

}  // namespace proj::app
