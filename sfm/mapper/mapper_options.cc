#include "sfm/mapper/mapper_options.h"

#include "core/check.h"

namespace proj {

void IncrementalMapperOptions::Check() const {
  calibration.Check();
  PROJ_REQUIRE(init_min_num_points >= 10, "mapper init_min_num_points must be >= 10");
  PROJ_REQUIRE(init_lowest_tri_angle_deg > 0 && init_lowest_tri_angle_deg <= init_min_tri_angle_deg,
               "mapper initial triangulation angles must satisfy 0 < lowest <= wanted");
  PROJ_REQUIRE(abs_pose_max_error_px > 0, "mapper abs_pose_max_error_px must be > 0");
  PROJ_REQUIRE(abs_pose_min_num_inliers >= 6, "mapper abs_pose_min_num_inliers must be >= 6");
  PROJ_REQUIRE(abs_pose_stalled_min_num_inliers >= 6,
               "mapper abs_pose_stalled_min_num_inliers must be >= 6");
  PROJ_REQUIRE(max_reproj_error_px > 0, "mapper max_reproj_error_px must be > 0");
  PROJ_REQUIRE(min_tri_angle_deg >= 0, "mapper min_tri_angle_deg must be >= 0");
  PROJ_REQUIRE(local_ba_max_constant_images >= 2,
               "mapper local_ba_max_constant_images must be >= 2 (they fix the gauge)");
  PROJ_REQUIRE(global_ba_growth >= 1.0, "mapper global_ba_growth must be >= 1");
  PROJ_REQUIRE(principal_point_max_rounds >= 1, "mapper principal_point_max_rounds must be >= 1");
  PROJ_REQUIRE(final_ba_min_change >= 0 && final_ba_min_change < 1,
               "mapper final_ba_min_change must be in [0, 1)");
  PROJ_REQUIRE(cpu_dense_schur_max_images >= 0, "mapper cpu_dense_schur_max_images must be >= 0");
  priors.Check();
  using Solver = BundleAdjustmentOptions::Solver;
  for (const Solver solver : {global_ba_solver, local_ba_solver}) {
    PROJ_REQUIRE(solver == Solver::kCeres || solver == Solver::kCpu || solver == Solver::kAuto,
                 "mapper global_ba_solver and local_ba_solver must be kCeres, kCpu or kAuto (the GPU "
                 "for adjustments large enough for it)");
  }
}

}  // namespace proj
