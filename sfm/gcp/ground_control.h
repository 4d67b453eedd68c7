// Georeferencing a built model by ground control points (GCPs): surveyed 3D positions marked
// in the images (gcp_file.h). Each point is triangulated from its marks in registered
// images; a similarity from the model to the GCPs' frame (Umeyama, over the control points)
// moves the scene there, and a bundle adjustment then holds each control point, observed
// through its marks, to its surveyed position with a stated standard deviation. Check points
// take no part in the adjustment: their residuals measure the georeferenced model's accuracy.
// The marks share the adjustment's robust loss (`ba`, Cauchy at 1 px by default): a control
// point whose survey or marks are off by several pixels is down-weighted as an outlier rather
// than bending the model, and its residual shows the error.
// The frame is metric local ENU (geometry/geodesy/local_enu_frame.h), as for GPS priors; GCPs
// take precedence over those: the adjustment uses no GPS prior.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/sim3.h"
#include "sfm/ba/bundle_adjuster.h"
#include "sfm/scene/scene.h"

namespace proj {

struct GroundControlOptions {
  std::string gcp_path;                  // --gcp: a gcp_list.txt; empty: no GCPs
  std::vector<std::string> check_names;  // --gcp-check: points left out as check points
  // Standard deviation of a control point's surveyed position, metres (--gcp-sigma-m): RTK
  // surveys are good to 1-3 cm. > 0.
  double sigma_horizontal_m = 0.02;
  double sigma_vertical_m = 0.02;
  int max_iterations = 100;  // of the adjustment; >= 1
  void Check() const;        // throws InputError naming the option
};

enum class GcpRole { kControl, kCheck };

// One point, in the ENU frame, with its marks by scene image id.
struct GroundControlInput {
  std::string name;
  GcpRole role = GcpRole::kControl;
  Eigen::Vector3d surveyed_enu = Eigen::Vector3d::Zero();
  std::vector<std::pair<int, Eigen::Vector2d>> marks;  // (image id, pixel)
};

struct GcpResidual {
  std::string name;
  GcpRole role = GcpRole::kControl;
  int num_marks = 0;             // in the file
  int num_registered_marks = 0;  // in registered images
  bool triangulated = false;     // from the final model; false: no residual
  Eigen::Vector3d surveyed_enu = Eigen::Vector3d::Zero();
  Eigen::Vector3d residual_enu_m = Eigen::Vector3d::Zero();  // triangulated - surveyed (E, N, U)
};

// RMS of residuals, per axis and of the 3D error.
struct GcpRms {
  int count = 0;
  Eigen::Vector3d enu_m = Eigen::Vector3d::Zero();
  double error_m = 0;
};

struct GroundControlSummary {
  std::string file, crs;  // the GCP file and its CRS, as the caller read them
  double sigma_horizontal_m = 0, sigma_vertical_m = 0;  // of the control points, as adjusted
  bool georeferenced = false;  // aligned to the control points and adjusted with them
  std::string failure_reason;  // when !georeferenced
  Sim3d enu_from_model;        // the alignment applied before the adjustment
  BundleAdjustmentSummary adjustment;
  std::vector<GcpResidual> points;  // in input order
  GcpRms control, check;            // over the triangulated points of each role
};

// Triangulates each point from its marks in registered images (a point with fewer than two
// is named in a warning and has no residual), aligns and adjusts as described above when
// three or more control points, not collinear, are triangulated, then triangulates every point
// again from the final model for its residual. Without enough control points the scene is
// unchanged and failure_reason says why. `ba` gives the adjustment's solver, threads and loss
// (the GPU solver where the mapping's runs on it).
GroundControlSummary AdjustToGroundControl(const GroundControlOptions& options, const BundleAdjustmentOptions& ba,
                                           const std::vector<GroundControlInput>& points, Scene* scene);

}  // namespace proj
