#include "mvs/depth_transfer.h"

#include <Eigen/LU>

namespace proj::mvs {

DepthTransfer::DepthTransfer(const ViewGeometry& from, const ViewGeometry& to) {
  const Eigen::Matrix3d to_from_rotation = to.rotation * from.rotation.transpose();
  rays_ = to.camera.K() * to_from_rotation * from.camera.K().inverse();
  offset_ = to.camera.K() * (to.translation - to_from_rotation * from.translation);
}

}  // namespace proj::mvs
