#include "geometry/ransac/sprt.h"

#include <algorithm>
#include <cmath>

namespace proj {
namespace {
constexpr double kPriorWeight = 100.0;  // initial delta counts as this many tested data
}  // namespace

SprtTest::SprtTest(double initial_delta, double model_cost)
    : model_cost_(model_cost),
      delta_(initial_delta),
      delta_consistent_(initial_delta * kPriorWeight),
      delta_tested_(kPriorWeight) {}

void SprtTest::SetEpsilon(double epsilon) {
  epsilon_ = epsilon;
  threshold_delta_ = 0.0;  // solve for A again
  Update();
}

void SprtTest::SetModelsPerSample(double models_per_sample) {
  models_per_sample_ = std::max(models_per_sample, 1e-3);
}

void SprtTest::RecordRejection(int consistent, int tested) {
  delta_consistent_ += consistent;
  delta_tested_ += tested;
  delta_ = std::clamp(delta_consistent_ / delta_tested_, 1e-4, 0.5);
  Update();
}

void SprtTest::Update() {
  // Inactive unless a good model is clearly more consistent than a bad one.
  active_ = epsilon_ > 1.5 * delta_ && epsilon_ < 1.0;
  if (!active_) return;
  consistent_factor_ = delta_ / epsilon_;
  inconsistent_factor_ = (1.0 - delta_) / (1.0 - epsilon_);
  // delta changes a little with every rejected hypothesis, A only logarithmically with it:
  // solving for A (a dozen logarithms) again only once delta has moved by 1% saves most of a
  // weak pair's RANSAC time for a threshold within a fraction of a percent.
  if (threshold_delta_ > 0.0 && std::abs(delta_ - threshold_delta_) <= 0.01 * threshold_delta_) {
    return;
  }
  threshold_delta_ = delta_;
  // C: expected log-likelihood ratio per datum of a bad model (Kullback-Leibler divergence).
  const double c = (1.0 - delta_) * std::log((1.0 - delta_) / (1.0 - epsilon_)) +
                   delta_ * std::log(delta_ / epsilon_);
  // A* = t_M C / m_S + 1 + log(A*), solved by fixed-point iteration (paper, eq. 6). The map
  // contracts by 1/A per step; delta moves little between updates, so starting from the last
  // A usually takes two steps (this runs after every rejected hypothesis).
  const double a0 = model_cost_ * c / models_per_sample_ + 1.0;
  double a = threshold_ > 1.0 ? threshold_ : a0;
  for (int i = 0; i < 10; ++i) {
    const double next = a0 + std::log(a);
    const bool converged = std::abs(next - a) <= 1e-12 * next;
    a = next;
    if (converged) break;
  }
  threshold_ = std::max(a, 1.0 + 1e-9);
}

}  // namespace proj
