// A measured position of an image's camera centre (a GPS fix), in the frame the model is to be
// georeferenced in (a local East-North-Up frame, metres: geometry/geodesy/local_enu_frame.h).
#pragma once

#include <Eigen/Core>

namespace proj {

struct PositionPrior {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // camera centre
  Eigen::Vector3d sigma = Eigen::Vector3d::Ones();      // standard deviation per axis; > 0
};

}  // namespace proj
