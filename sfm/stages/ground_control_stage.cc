#include "sfm/stages/ground_control_stage.h"

#include <map>
#include <set>

#include "core/logging.h"
#include "sfm/mapper/prior_alignment.h"

namespace proj {
namespace {

// The points of `file` in `frame`, their marks by scene image id.
std::vector<GroundControlInput> InputsInFrame(const GcpFile& file, const std::vector<std::string>& check_names,
                                              const EnuFrame& frame, const Scene& scene) {
  std::map<std::string, int> image_id_of;
  for (size_t i = 0; i < scene.images.size(); ++i) image_id_of[scene.images[i].name] = static_cast<int>(i);
  const std::set<std::string> checks(check_names.begin(), check_names.end());
  const LocalEnuConverter enu(frame);
  std::vector<GroundControlInput> inputs;
  for (const GroundControlPoint& point : file.points) {
    GroundControlInput input;
    input.name = point.name;
    input.role = checks.count(point.name) ? GcpRole::kCheck : GcpRole::kControl;
    input.surveyed_enu = enu.EnuFromWgs84(point.wgs84);
    for (const GcpObservation& observation : point.observations) {
      input.marks.emplace_back(image_id_of.at(observation.image_name), observation.pixel);
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// The GPS priors, stated in the frame `from`, restated in `to`.
void ConvertPriors(const EnuFrame& from, const EnuFrame& to, Scene* scene) {
  const LocalEnuConverter source(from), target(to);
  for (auto& [image_id, prior] : scene->position_priors) {
    prior.position = target.EnuFromWgs84(source.Wgs84FromEnu(prior.position));
  }
}

// The GPS residuals against the model georeferenced by GCPs: the images of the GPS alignment
// with its inlier flags, or, without one, every registered image with a prior.
PriorAlignment GpsResidualsAfterGcps(const PriorAlignment& gps, const Sim3d& enu_from_model, const Scene& scene) {
  PriorAlignment alignment;
  alignment.aligned = true;
  alignment.priors_from_model = enu_from_model;
  alignment.residuals = gps.residuals;
  if (!gps.aligned) {
    alignment.residuals.clear();
    for (const auto& [image_id, prior] : scene.position_priors) {
      if (!scene.images[image_id].registered) continue;
      PriorResidual residual;
      residual.image_id = image_id;
      residual.inlier = true;
      alignment.residuals.push_back(residual);
    }
  }
  MeasurePriorResiduals(scene, &alignment);
  return alignment;
}

}  // namespace

GcpFile ReadGcpFileForScene(const GroundControlOptions& options, const Scene& scene) {
  GcpFile file = ReadGcpFile(options.gcp_path);
  CheckGcpNames(file, options.check_names);
  std::map<std::string, Eigen::Vector2i> image_sizes;
  for (const SceneImage& image : scene.images) {
    const Camera& camera = scene.cameras[image.camera_id];
    image_sizes[image.name] = Eigen::Vector2i(camera.width, camera.height);
  }
  CheckGcpObservations(file, image_sizes);
  return file;
}

void ApplyGroundControl(const GroundControlOptions& options, const GcpFile& file, const BundleAdjustmentOptions& ba,
                        MappingStageSummary* summary) {
  if (!summary->mapper.success) return;
  Scene& scene = summary->scene;
  std::vector<Wgs84Position> positions;
  for (const GroundControlPoint& point : file.points) positions.push_back(point.wgs84);
  const EnuFrame frame = ChooseEnuFrame(positions);  // heights ellipsoidal: the file's
  GroundControlSummary gcp = AdjustToGroundControl(options, ba, InputsInFrame(file, options.check_names, frame, scene), &scene);
  gcp.file = file.path;
  gcp.crs = file.crs;
  if (gcp.georeferenced) {
    if (summary->enu_frame) ConvertPriors(*summary->enu_frame, frame, &scene);
    summary->mapper.georeference = GpsResidualsAfterGcps(summary->mapper.georeference, gcp.enu_from_model, scene);
    summary->enu_frame = frame;
    PROJ_LOG(kInfo, "GCP adjustment (" << gcp.adjustment.solver << "): " << gcp.adjustment.num_iterations
                                       << " iterations, " << gcp.adjustment.time_s << " s, rms "
                                       << gcp.adjustment.initial_rms_px << " -> " << gcp.adjustment.final_rms_px
                                       << " px");
    PROJ_LOG(kInfo, "model georeferenced by " << gcp.control.count << " ground control points: RMS "
                                              << gcp.control.error_m << " m (control), " << gcp.check.error_m
                                              << " m over " << gcp.check.count << " check point(s)");
  } else {
    PROJ_LOG(kWarning, "the ground control points could not be used: " << gcp.failure_reason
                                                                       << (summary->mapper.georeference.aligned
                                                                               ? "; the GPS georeference stands"
                                                                               : ""));
  }
  summary->ground_control = std::move(gcp);
}

}  // namespace proj
