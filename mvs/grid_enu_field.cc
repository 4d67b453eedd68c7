#include "mvs/grid_enu_field.h"

#include <algorithm>
#include <cmath>

namespace proj::mvs {

GridEnuField::GridEnuField(const GroundGrid& grid, double reference_height_m,
                           const std::function<Eigen::Vector3d(const Eigen::Vector3d&)>& enu_from_map)
    : nodes_x_((grid.width + kNodeStepCells - 1) / kNodeStepCells + 1),
      nodes_y_((grid.height + kNodeStepCells - 1) / kNodeStepCells + 1),
      reference_height_m_(reference_height_m) {
  constexpr double kDeltaM = 100;
  base_.resize(static_cast<size_t>(nodes_x_) * nodes_y_);
  per_metre_.resize(base_.size());
  for (int j = 0; j < nodes_y_; ++j) {
    for (int i = 0; i < nodes_x_; ++i) {
      const double easting = grid.west_m + i * kNodeStepCells * grid.cell_m;
      const double northing = grid.north_m - j * kNodeStepCells * grid.cell_m;
      const Eigen::Vector3d low = enu_from_map({easting, northing, reference_height_m});
      const Eigen::Vector3d high = enu_from_map({easting, northing, reference_height_m + kDeltaM});
      base_[static_cast<size_t>(j) * nodes_x_ + i] = low;
      per_metre_[static_cast<size_t>(j) * nodes_x_ + i] = (high - low) / kDeltaM;
    }
  }
}

Eigen::Vector3d GridEnuField::EnuAt(double x, double y, double height_m) const {
  const double fx = x / kNodeStepCells, fy = y / kNodeStepCells;
  const int i = std::clamp(static_cast<int>(std::floor(fx)), 0, nodes_x_ - 2);
  const int j = std::clamp(static_cast<int>(std::floor(fy)), 0, nodes_y_ - 2);
  const double tx = fx - i, ty = fy - j;
  const size_t k00 = static_cast<size_t>(j) * nodes_x_ + i, k01 = k00 + nodes_x_;
  const double w00 = (1 - tx) * (1 - ty), w10 = tx * (1 - ty), w01 = (1 - tx) * ty, w11 = tx * ty;
  const Eigen::Vector3d base = w00 * base_[k00] + w10 * base_[k00 + 1] + w01 * base_[k01] + w11 * base_[k01 + 1];
  const Eigen::Vector3d per_metre =
      w00 * per_metre_[k00] + w10 * per_metre_[k00 + 1] + w01 * per_metre_[k01] + w11 * per_metre_[k01 + 1];
  return base + (height_m - reference_height_m_) * per_metre;
}

}  // namespace proj::mvs
