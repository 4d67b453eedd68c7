// The dome of a block of photos: the part of the cameras' vertical disagreement with their GPS
// fixes that grows with the square of the horizontal distance from the block's centre.
//
// Photos whose optical axes are all parallel (a nadir survey, whatever its yaw) cannot tell a
// camera's radial distortion from a bend of the whole block (Wu, "Critical configurations for
// radial distortion self-calibration", CVPR 2014): on a 340 m synthetic block flown at 80 m, a k1
// off by 0.005 left it bent 2.1 m at 170 m from its centre for a 0.2% lower reprojection cost. Only evidence
// outside the photos decides: GPS fixes, ground control points, oblique photos or a known
// calibration. The fixes' vertical residuals are that evidence here.
#pragma once

#include <cmath>
#include <string>

#include <Eigen/Core>

#include "sfm/mapper/prior_alignment.h"
#include "sfm/scene/scene.h"

namespace proj {

struct GpsDome {
  bool measured = false;  // enough inlier fixes spread over an area (>= 8, not on a line)
  int num_fixes = 0;      // inlier fixes of the alignment used
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();  // the fixes' centroid (east, north)
  double radius_m = 0;    // the farthest fix from the centre, horizontally
  // Height of the cameras against their fixes at radius_m, relative to the block's centre, from
  // the least-squares fit dz = a + b x + c y + d (x^2 + y^2): d radius^2. Negative: the edges
  // hang below the GPS (a bowl); positive: a dome.
  double edge_m = 0;
  double edge_sigma_m = 0;  // its standard error, from the scatter of the fit's residuals
  double Significance() const { return edge_sigma_m > 0 ? std::abs(edge_m) / edge_sigma_m : 0; }
  // The bend at horizontal position `xy`: edge_m |xy - centre|^2 / radius_m^2.
  double HeightAt(const Eigen::Vector2d& xy) const {
    return radius_m > 0 ? edge_m * (xy - centre).squaredNorm() / (radius_m * radius_m) : 0;
  }
};

// From the alignment's inlier residuals (model centre - fix, east/north/up) and the fixes'
// positions in the scene's frame. Not measured without an alignment or with fewer than 8 inliers.
GpsDome MeasureGpsDome(const Scene& scene, const PriorAlignment& alignment);

// The correction of a dome by the cameras' k1 (dome_correction.h).
struct DomeCorrectionOptions {
  double min_significance = 4;  // |edge| / its standard error that calls for the correction
  // Points whose observations fit the intrinsics of the flattened block, at most (evenly
  // spread over the point ids): a handful of parameters need no more.
  int max_intrinsics_points = 50000;  // > 0
  double flat_significance = 2;  // once started, rounds go on while the dome is beyond this; > 0
  int max_rounds = 3;  // of flattening, fitting, adjusting and refining; >= 1
  // A round whose adjusted RMS reprojection error exceeds this multiple of the model's mean
  // error before the correction stops it, uncorrected; >= 1.
  double max_rms_growth = 2;
  void Check() const;  // throws InputError naming the field
};

struct DomeCorrection {
  bool attempted = false;  // a significant dome on a camera model with distortion
  bool applied = false;    // the model now has the corrected k1 (else restored as it was)
  GpsDome before, after;   // after: of the kept model
  double k1_shift = 0;     // of the camera with the most images (0 unless applied)
  std::string note;        // one sentence for the log and report.json: what was done and why
};


}  // namespace proj
