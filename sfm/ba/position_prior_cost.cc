#include "sfm/ba/position_prior_cost.h"

#include <ceres/autodiff_cost_function.h>
#include <ceres/sized_cost_function.h>

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

// Linear in one parameter: the Jacobian is a constant row.
class CameraParameterPriorCost : public ceres::CostFunction {
 public:
  CameraParameterPriorCost(int num_params, int index, double value, double sigma)
      : index_(index), value_(value), inverse_sigma_(1.0 / sigma) {
    set_num_residuals(1);
    mutable_parameter_block_sizes()->push_back(num_params);
  }
  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    residuals[0] = (parameters[0][index_] - value_) * inverse_sigma_;
    if (jacobians != nullptr && jacobians[0] != nullptr) {
      const int n = parameter_block_sizes()[0];
      for (int k = 0; k < n; ++k) jacobians[0][k] = k == index_ ? inverse_sigma_ : 0.0;
    }
    return true;
  }

 private:
  int index_;
  double value_;
  double inverse_sigma_;
};

// Linear in the point: the Jacobian is diag(1 / sigma).
class PointPriorCost : public ceres::SizedCostFunction<3, 3> {
 public:
  explicit PointPriorCost(const PositionPrior& prior)
      : position_(prior.position), inverse_sigma_(prior.sigma.cwiseInverse()) {}
  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    for (int k = 0; k < 3; ++k) residuals[k] = (parameters[0][k] - position_[k]) * inverse_sigma_[k];
    if (jacobians != nullptr && jacobians[0] != nullptr) {
      for (int k = 0; k < 9; ++k) jacobians[0][k] = k % 4 == 0 ? inverse_sigma_[k / 4] : 0.0;
    }
    return true;
  }

 private:
  Eigen::Vector3d position_;
  Eigen::Vector3d inverse_sigma_;
};

}  // namespace

std::unique_ptr<ceres::CostFunction> CreatePointPriorCost(const PositionPrior& prior) {
  return std::make_unique<PointPriorCost>(prior);
}

std::unique_ptr<ceres::CostFunction> CreateCameraParameterPriorCost(int num_params, int index,
                                                                    double value, double sigma) {
  return std::make_unique<CameraParameterPriorCost>(num_params, index, value, sigma);
}

std::unique_ptr<ceres::CostFunction> CreatePositionPriorCost(const PositionPrior& prior) {
  return std::make_unique<ceres::AutoDiffCostFunction<PositionPriorFunctor, 3, 4, 3>>(
      new PositionPriorFunctor(prior));
}

}  // namespace proj
