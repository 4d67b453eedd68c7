// Accuracy of a reconstruction against ground-truth cameras (Strecha `.camera` files): the
// model's camera centres are aligned to the true centres by a similarity transform (Umeyama),
// then each registered camera's position error (ground-truth units, metres for Strecha) is
// measured; rotation errors (degrees) are measured after aligning the orientations by their
// chordal mean, independent of the centres.
#pragma once

#include <string>
#include <vector>

#include "geometry/sim3.h"
#include "sfm/scene/scene.h"

namespace proj {

struct CameraError {
  std::string name;
  double position_error = 0;   // ground-truth units
  double rotation_error_deg = 0;
};

struct PoseEvaluation {
  int num_ground_truth = 0;   // cameras with ground truth
  int num_registered = 0;     // of those, registered in the model
  std::vector<CameraError> errors;  // per registered camera with ground truth
  double median_position_error = 0, mean_position_error = 0, max_position_error = 0;
  double median_rotation_error_deg = 0, max_rotation_error_deg = 0;
  // The alignment the position errors are measured after: ground-truth frame from the
  // model's frame (Umeyama on the registered camera centres).
  Sim3d true_from_model;
};

// Ground truth for image NAME is GT_DIR/NAME.camera. Throws InputError if the folder holds no
// .camera file or fewer than three registered images have ground truth (no alignment).
PoseEvaluation EvaluateAgainstGroundTruth(const Scene& model, const std::string& gt_dir);

}  // namespace proj
