#include "sfm/ba/position_prior_cost.h"

#include <ceres/autodiff_cost_function.h>

#include <Eigen/Geometry>

namespace proj {
namespace {

struct PositionPriorFunctor {
  explicit PositionPriorFunctor(const PositionPrior& p)
      : position(p.position), inverse_sigma(p.sigma.cwiseInverse()) {}

  template <typename T>
  bool operator()(const T* rotation, const T* translation, T* residual) const {
    const Eigen::Map<const Eigen::Quaternion<T>> q(rotation);
    const Eigen::Matrix<T, 3, 1> center =
        -(q.conjugate() * Eigen::Map<const Eigen::Matrix<T, 3, 1>>(translation));
    for (int k = 0; k < 3; ++k) {
      residual[k] = (center[k] - T(position[k])) * T(inverse_sigma[k]);
    }
    return true;
  }

  Eigen::Vector3d position;
  Eigen::Vector3d inverse_sigma;
};

}  // namespace

std::unique_ptr<ceres::CostFunction> CreatePositionPriorCost(const PositionPrior& prior) {
  return std::make_unique<ceres::AutoDiffCostFunction<PositionPriorFunctor, 3, 4, 3>>(
      new PositionPriorFunctor(prior));
}

}  // namespace proj
