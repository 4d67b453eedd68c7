#include "mvs/dense_fusion_step.h"

namespace proj::mvs {

DenseFusionSummary FuseDenseCloud(const Scene& pinhole, const DenseWorkspace& workspace,
                                  const std::vector<int>& image_ids, const std::vector<std::vector<int>>& sources,
                                  const DenseOptions& options) {
  (void)pinhole;
  (void)workspace;
  (void)sources;
  (void)options;
  DenseFusionSummary summary;
  summary.num_depth_maps = static_cast<int>(image_ids.size());
  // TODO(issue 24, filter + fusion): for each of `image_ids`, FilterDepthMap against the
  // photometric depth maps of its `sources` (with its cost map), writing the geometric maps
  // (workspace.DepthMapPath / NormalMapPath(name, MapKind::kGeometric)); then FuseDepthMaps
  // over the filtered maps (neighbours: `sources`; colours: the undistorted images), written
  // to workspace.PointsPlyPath(); set summary.num_points. Georeferenced points.las: above
  // mvs (sfm/pipeline RunDenseStage, sfm/app/dense_command.cc), by WriteGeoreferencedPointsLas.
  return summary;
}

}  // namespace proj::mvs
