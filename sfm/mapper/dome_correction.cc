#include "sfm/mapper/dome_correction.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Geometry>

#include "core/check.h"
#include "core/logging.h"
#include "sfm/mapper/scene_geometry.h"

namespace proj {

void DomeCorrectionOptions::Check() const {
  PROJ_REQUIRE(min_significance > 0, "DomeCorrectionOptions.min_significance must be > 0");
  PROJ_REQUIRE(max_intrinsics_points > 0, "DomeCorrectionOptions.max_intrinsics_points must be > 0");
  PROJ_REQUIRE(max_rounds >= 1, "DomeCorrectionOptions.max_rounds must be >= 1");
  PROJ_REQUIRE(flat_significance > 0, "DomeCorrectionOptions.flat_significance must be > 0");
  PROJ_REQUIRE(max_rms_growth >= 1, "DomeCorrectionOptions.max_rms_growth must be >= 1");
}

void FlattenDome(const GpsDome& dome, Scene* scene) {
  if (!dome.measured || dome.radius_m <= 0) return;
  const double curvature = 2 * dome.edge_m / (dome.radius_m * dome.radius_m);
  const auto slope_at = [&](const Eigen::Vector2d& xy) -> Eigen::Vector2d { return curvature * (xy - dome.centre); };
  // The bend is not a vertical shear: the mapper bends the block as rigid patches, each camera
  // turned with the slope under it (200-image flight: the cameras' tilts follow the slope of
  // their dome, coefficient -1.00), so a point `depth` below the cameras' layer also lies
  // depth x slope aside. Flattening turns the cameras back and moves the points back beneath them.
  double layer_height = 0;
  int num_cameras = 0;
  for (SceneImage& image : scene->images) {
    if (!image.registered) continue;
    const Eigen::Vector3d centre = image.cam_from_world.Center();
    layer_height += centre.z() - dome.HeightAt(centre.head<2>());
    ++num_cameras;
    const Eigen::Vector2d slope = slope_at(centre.head<2>());
    const Eigen::Vector3d normal = Eigen::Vector3d(-slope.x(), -slope.y(), 1).normalized();
    const Eigen::Quaterniond unbend = Eigen::Quaterniond::FromTwoVectors(normal, Eigen::Vector3d::UnitZ());
    const Eigen::Vector3d flat_centre = centre - Eigen::Vector3d(0, 0, dome.HeightAt(centre.head<2>()));
    Rigid3d& pose = image.cam_from_world;
    pose.rotation = (pose.rotation * unbend.conjugate()).normalized();
    pose.translation = -(pose.rotation * flat_centre);
  }
  if (num_cameras == 0) return;
  layer_height /= num_cameras;  // of the flattened cameras
  for (auto& [id, point] : scene->points) {
    const Eigen::Vector2d xy = point.position.head<2>();
    const double height = dome.HeightAt(xy);
    const double depth = layer_height + height - point.position.z();
    point.position.head<2>() -= depth * slope_at(xy);
    point.position.z() -= height;
  }
}

namespace {

bool HasDistortion(const Scene& scene) {
  for (const Camera& camera : scene.cameras) {
    if (!camera.ExtraIndices().empty()) return true;
  }
  return false;
}

// The dome of `scene` against the fixes the alignment keeps, its residuals measured again.
GpsDome MeasureDome(PriorAlignment alignment, const Scene& scene) {
  if (!alignment.aligned) return GpsDome{};
  MeasurePriorResiduals(scene, &alignment);
  return MeasureGpsDome(scene, alignment);
}

// The focal lengths and distortion that explain the photos of `scene` as it stands: every pose
// and point held, the intrinsics refined over (a spread subset of) the points' observations.
BundleAdjustmentSummary FitIntrinsics(const DomeCorrectionOptions& dome_options, int num_threads, Scene* scene) {
  BundleAdjustmentConfig config;
  for (size_t i = 0; i < scene->images.size(); ++i) {
    if (scene->images[i].registered) config.constant_pose_image_ids.insert(static_cast<int>(i));
  }
  const size_t stride = std::max<size_t>(1, scene->points.size() / dome_options.max_intrinsics_points);
  size_t index = 0;
  for (const auto& [id, point] : scene->points) {
    if (index++ % stride == 0) config.constant_point_ids.insert(id);
  }
  BundleAdjustmentOptions ba;
  ba.solver = BundleAdjustmentOptions::Solver::kCeres;  // only the intrinsics move: a tiny problem
  ba.loss = BundleAdjustmentOptions::LossType::kCauchy;
  ba.max_iterations = 50;
  ba.num_threads = num_threads;
  ba.update_point_errors = false;
  return RunBundleAdjustment(ba, config, scene);
}

// The k1 of the camera with the most registered images.
double MainK1(const Scene& scene) {
  std::vector<int> count(scene.cameras.size(), 0);
  for (const SceneImage& image : scene.images) {
    if (image.registered) ++count[image.camera_id];
  }
  const int camera = static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
  const auto extra = scene.cameras[camera].ExtraIndices();
  return extra.empty() ? 0 : scene.cameras[camera].params[extra.front()];
}

std::string Metres(double value) {
  std::ostringstream text;
  text.precision(2);
  text << std::fixed << value << " m";
  return text.str();
}

enum class RoundOutcome { kFlatter, kDiverged, kNotFlatter };

// One round on the scene as it is: flattened by `dome` on a copy, the intrinsics fitted, the
// copy adjusted; taken (and refined until stable) only when the GPS sees it flatter.
RoundOutcome CorrectionRound(const DomeCorrectionOptions& dome_options, const IncrementalMapperOptions& options,
                             double start_rms_px, int round, const GpsDome& dome, IncrementalMapper* mapper,
                             Scene* scene, GpsDome* after) {
  const PriorAlignment alignment = mapper->AlignToPriors();
  Scene copy = *scene;
  FlattenDome(dome, &copy);
  const BundleAdjustmentSummary fit = FitIntrinsics(dome_options, options.num_threads, &copy);
  const BundleAdjustmentSummary adjusted =
      mapper->AdjustCopy(options.global_ba_max_iterations, options.final_ba_function_tolerance,
                         BundleAdjustmentOptions::LossType::kCauchy, &copy);
  const GpsDome flattened = MeasureDome(alignment, copy);
  PROJ_LOG(kInfo, "dome correction, round " << round << ": flattened by " << dome.edge_m << " m; intrinsics fitted, k1 "
                      << MainK1(copy) << ", rms " << fit.initial_rms_px << " -> " << fit.final_rms_px
                      << " px; adjusted, rms " << adjusted.final_rms_px << " px, edges at " << flattened.edge_m << " m");
  // A flattening the photos refuse (their error far above the model's) is not the bend's cure.
  if (!fit.success || !adjusted.success || adjusted.final_rms_px > dome_options.max_rms_growth * start_rms_px) {
    return RoundOutcome::kDiverged;
  }
  if (!flattened.measured || std::abs(flattened.edge_m) >= std::abs(dome.edge_m)) return RoundOutcome::kNotFlatter;
  // The copy has the scene's points (no filtering yet): take it, and let the final rounds filter.
  *scene = std::move(copy);
  RefineUntilStable(options, options.final_ba_max_rounds, mapper);
  *after = MeasureDome(mapper->AlignToPriors(), *scene);
  return RoundOutcome::kFlatter;
}

}  // namespace

DomeCorrection CorrectDomeFromGps(const DomeCorrectionOptions& dome_options,
                                  const IncrementalMapperOptions& options, IncrementalMapper* mapper,
                                  Scene* scene) {
  dome_options.Check();
  DomeCorrection result;
  result.before = result.after = MeasureDome(mapper->AlignToPriors(), *scene);
  const GpsDome& before = result.before;
  if (!before.measured || before.Significance() < dome_options.min_significance || !HasDistortion(*scene)) {
    return result;
  }
  result.attempted = true;
  const double start_rms_px = MeanReprojectionErrorPx(*scene);
  const double start_k1 = MainK1(*scene);
  mapper->SetDistortionHeld(true);
  // Flattened, the photos ask for other intrinsics, and refined with those the block bends back
  // part of the way (1,000-image flight: from 21.5 m to 5.2 m in one round): rounds until the
  // GPS sees no significant dome.
  RoundOutcome outcome = RoundOutcome::kFlatter;
  for (int round = 1; round <= dome_options.max_rounds && result.after.Significance() > dome_options.flat_significance;
       ++round) {
    outcome = CorrectionRound(dome_options, options, start_rms_px, round, result.after, mapper, scene, &result.after);
    if (outcome != RoundOutcome::kFlatter) break;
    result.applied = true;
  }
  if (!result.applied) mapper->SetDistortionHeld(false);
  result.k1_shift = MainK1(*scene) - start_k1;
  std::ostringstream note;
  note << "the block's edges lay " << Metres(before.edge_m) << " from their GPS fixes relative to its centre ("
       << std::lround(before.Significance()) << " standard errors over " << before.num_fixes
       << " fixes; photos whose axes are all parallel cannot tell lens distortion from such a bend)";
  if (result.applied) {
    note << ": flattened by the GPS, the distortion refitted (k1 " << std::showpos << result.k1_shift
         << std::noshowpos << ") and held; the edges now lie " << Metres(result.after.edge_m) << " +- "
         << Metres(result.after.edge_sigma_m) << " from them";
  } else if (outcome == RoundOutcome::kDiverged) {
    note << ": not corrected (flattened, the photos' reprojection error grew beyond " << dome_options.max_rms_growth
         << " x the model's)";
  } else {
    note << ": not corrected (flattened and adjusted, the block did not come out flatter)";
  }
  result.note = note.str();
  PROJ_LOG(kInfo, "dome: " << result.note);
  return result;
}

}  // namespace proj
