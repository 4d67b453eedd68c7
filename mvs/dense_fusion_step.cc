#include "mvs/dense_fusion_step.h"

namespace proj::mvs {

DenseFusionSummary FuseDenseCloud(const Scene& pinhole, const DenseWorkspace& workspace,
                                  const std::vector<int>& image_ids, const DenseOptions& options) {
  (void)pinhole;
  (void)workspace;
  (void)options;
  DenseFusionSummary summary;
  summary.num_depth_maps = static_cast<int>(image_ids.size());
  // TODO(issue 24, filter + fusion): run the geometric filter over `image_ids` (photometric
  // maps -> geometric maps), then fuse the geometric maps into workspace.PointsPlyPath() and
  // set summary.num_points.
  return summary;
}

}  // namespace proj::mvs
