#include "sfm/ba/lm_solver.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"

namespace proj {

cuda::BaSolverSummary RunLevenbergMarquardt(const cuda::BaSolverOptions& options,
                                            cuda::BaBackend* backend) {
  options.Check();
  cuda::BaSolverSummary summary;
  double cost = 0, gradient_max_norm = 0;
  if (!backend->Linearize(&cost, &gradient_max_norm)) {
    summary.message = "a point is behind an observing camera at the start";
    return summary;
  }
  summary.initial_cost = summary.final_cost = cost;
  summary.success = true;
  if (gradient_max_norm <= options.gradient_tolerance) {
    summary.message = "gradient tolerance reached at the start";
    return summary;
  }
  constexpr double kMaxRadius = 1e16, kMinRadius = 1e-32, kMinRelativeDecrease = 1e-3;
  double radius = options.initial_trust_region_radius;
  double decrease_factor = 2;
  summary.message = "maximum number of iterations reached";
  while (summary.num_iterations < options.max_iterations) {
    ++summary.num_iterations;
    const cuda::BaStep step = backend->ComputeStep(1 / radius);
    summary.num_pcg_iterations += step.pcg_iterations;
    double candidate_cost = 0;
    bool successful = false;
    if (step.valid && step.model_cost_change > 0) {
      const bool candidate_valid = backend->EvaluateCandidate(&candidate_cost);
      const double parameter_norm = backend->ParameterNorm();
      if (step.step_norm <=
          options.parameter_tolerance * (parameter_norm + options.parameter_tolerance)) {
        summary.message = "parameter tolerance reached";
        break;
      }
      if (candidate_valid &&
          std::abs(cost - candidate_cost) <= options.function_tolerance * cost) {
        summary.message = "function tolerance reached";
        break;
      }
      const double relative_decrease =
          candidate_valid ? (cost - candidate_cost) / step.model_cost_change : -1;
      successful = relative_decrease > kMinRelativeDecrease;
      if (successful) {
        backend->AcceptCandidate();
        const double t = 2 * relative_decrease - 1;
        radius = std::min(kMaxRadius, radius / std::max(1.0 / 3.0, 1.0 - t * t * t));
        decrease_factor = 2;
        ++summary.num_successful_steps;
        PROJ_CHECK(backend->Linearize(&cost, &gradient_max_norm),
                   "accepted a step with a point behind a camera");
        summary.final_cost = cost;
      }
    }
    if (options.verbose) {
      PROJ_LOG(kInfo, "bundle adjustment (LM-PCG) iteration "
                          << summary.num_iterations << ": cost " << cost << ", |gradient| "
                          << gradient_max_norm << ", |step| " << step.step_norm << ", PCG "
                          << step.pcg_iterations << (successful ? "" : " (rejected)"));
    }
    if (!successful) {
      radius /= decrease_factor;
      decrease_factor *= 2;
      if (radius < kMinRadius) {
        summary.message = "trust region radius below its minimum";
        break;
      }
    } else if (gradient_max_norm <= options.gradient_tolerance) {
      summary.message = "gradient tolerance reached";
      break;
    }
  }
  return summary;
}

}  // namespace proj
