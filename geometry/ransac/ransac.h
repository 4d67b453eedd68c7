// Generic RANSAC with MSAC scoring and local optimization, over a static Estimator concept
// (no virtual calls per datum). Callers normally use the Estimate* functions
// (estimate_two_view.h, estimate_absolute_pose.h, estimate_similarity.h); instantiate Ransac
// directly only for new model types.
//
// References: M. Fischler, R. Bolles, "Random sample consensus", CACM 1981; MSAC cost
// sum_i min(e_i^2, t^2): P. Torr, A. Zisserman, "MLESAC", CVIU 2000; LO-RANSAC: O. Chum,
// J. Matas, J. Kittler, DAGM 2003, with the iterated least squares of K. Lebeda, J. Matas,
// O. Chum, "Fixing the locally optimized RANSAC", BMVC 2012; early rejection of hypotheses by
// SPRT: O. Chum, J. Matas, "Optimal Randomized RANSAC", PAMI 2008 (sprt.h).
//
// Estimator concept (checked by IsEstimator):
//   using Datum = ...;  using Model = ...;
//   static constexpr int kSampleSize = k;
//   // Appends the 0..n models fitting a minimal sample (the caller clears `models`).
//   void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const;
//   // Squared error of one datum, in the squared unit of RansacOptions.max_error.
//   double SquaredError(const Datum& datum, const Model& model) const;
// Optional, enables local optimization (detected by HasRefit):
//   // Least-squares fit on many data (>= kSampleSize), starting from / near `initial`.
//   bool Refit(const std::vector<Datum>& inliers, const Model& initial, Model* refined) const;
// Optional, the errors of `count` consecutive data at once (detected by HasSquaredErrors), for
// estimators whose error loop the compiler can vectorize; must equal SquaredError per datum:
//   void SquaredErrors(const Datum* data, int count, const Model& model, double* errors) const;
// Optional, tunes the SPRT early rejection (sprt.h); 200 when absent:
//   // Time of one Fit in units of one SquaredError call.
//   static constexpr double kFitCostInErrorEvaluations = ...;
//
// Thread safety: Ransac keeps all state in locals; it is safe to run concurrently on distinct
// estimators (and on one estimator if its Fit/SquaredError/Refit are).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/check.h"
#include "geometry/ransac/ransac_options.h"
#include "geometry/ransac/sprt.h"

namespace proj {

template <typename E, typename = void>
struct IsEstimator : std::false_type {};
template <typename E>
struct IsEstimator<
    E, std::void_t<typename E::Datum, typename E::Model, decltype(E::kSampleSize),
                   decltype(std::declval<const E&>().Fit(
                       std::declval<const std::array<typename E::Datum, E::kSampleSize>&>(),
                       std::declval<std::vector<typename E::Model>*>())),
                   decltype(std::declval<const E&>().SquaredError(
                       std::declval<const typename E::Datum&>(),
                       std::declval<const typename E::Model&>()))>> : std::true_type {};

template <typename E, typename = void>
struct HasRefit : std::false_type {};
template <typename E>
struct HasRefit<E,
                std::void_t<decltype(std::declval<const E&>().Refit(
                    std::declval<const std::vector<typename E::Datum>&>(),
                    std::declval<const typename E::Model&>(), std::declval<typename E::Model*>()))>>
    : std::is_same<bool, decltype(std::declval<const E&>().Refit(
                             std::declval<const std::vector<typename E::Datum>&>(),
                             std::declval<const typename E::Model&>(),
                             std::declval<typename E::Model*>()))> {};

template <typename E, typename = void>
struct HasSquaredErrors : std::false_type {};
template <typename E>
struct HasSquaredErrors<E, std::void_t<decltype(std::declval<const E&>().SquaredErrors(
                               std::declval<const typename E::Datum*>(), 0,
                               std::declval<const typename E::Model&>(),
                               std::declval<double*>()))>> : std::true_type {};

template <typename E, typename = void>
struct FitCostInErrorEvaluations {
  static constexpr double value = 200.0;
};
template <typename E>
struct FitCostInErrorEvaluations<E, std::void_t<decltype(E::kFitCostInErrorEvaluations)>> {
  static constexpr double value = E::kFitCostInErrorEvaluations;
};

// Number of samples needed to draw one all-inlier sample with probability `confidence` when a
// fraction `inlier_ratio` of the data are inliers: log(1 - p) / log(1 - w^k), clamped to
// [0, max_iterations]. `pass_probability` is the chance that a good model survives an early
// rejection test (SPRT), which scales w^k.
inline int RansacRequiredIterations(double inlier_ratio, int sample_size, double confidence,
                                    int max_iterations, double pass_probability = 1.0) {
  const double all_inliers =
      std::pow(std::clamp(inlier_ratio, 0.0, 1.0), sample_size) * pass_probability;
  if (all_inliers >= 1.0) return 0;
  if (all_inliers <= 0.0) return max_iterations;
  const double denominator = std::log1p(-all_inliers);
  if (!(denominator < 0.0)) return max_iterations;
  const double n = std::ceil(std::log1p(-confidence) / denominator);
  return n >= max_iterations ? max_iterations : static_cast<int>(std::max(n, 0.0));
}

namespace internal {

// Errors are computed this many data at a time (then consumed one by one, so early stops
// still happen at the same datum): a block is a few SIMD iterations.
constexpr int kErrorBlock = 16;

// errors[k] = squared error of data[k], k < count <= kErrorBlock.
template <typename Estimator>
void SquaredErrors(const Estimator& estimator, const typename Estimator::Datum* data, int count,
                   const typename Estimator::Model& model, double* errors) {
  if constexpr (HasSquaredErrors<Estimator>::value) {
    estimator.SquaredErrors(data, count, model, errors);
  } else {
    for (int k = 0; k < count; ++k) errors[k] = estimator.SquaredError(data[k], model);
  }
}

// Calls visit(index, squared error) for the data in order, from `begin` to `end`, while it
// returns true; returns false when `visit` stopped it.
template <typename Estimator, typename Visit>
bool VisitErrors(const Estimator& estimator, const std::vector<typename Estimator::Datum>& data,
                 const typename Estimator::Model& model, int begin, int end, Visit&& visit) {
  double errors[kErrorBlock];
  for (int first = begin; first < end; first += kErrorBlock) {
    const int count = std::min(kErrorBlock, end - first);
    SquaredErrors(estimator, data.data() + first, count, model, errors);
    for (int k = 0; k < count; ++k) {
      if (!visit(first + k, errors[k])) return false;
    }
  }
  return true;
}

// MSAC cost of `model`, stopping early (returning +inf) once it exceeds `bound`. Reports the
// inliers among the `num_tested` data visited (all data unless stopped early).
template <typename Estimator>
double MsacCost(const Estimator& estimator, const std::vector<typename Estimator::Datum>& data,
                const typename Estimator::Model& model, double threshold_sq, double bound,
                int* num_inliers, int* num_tested = nullptr) {
  double cost = 0.0;
  int inliers = 0, tested = 0;
  VisitErrors(estimator, data, model, 0, static_cast<int>(data.size()), [&](int, double e) {
    ++tested;
    const bool inlier = e < threshold_sq;
    cost += inlier ? e : threshold_sq;
    inliers += inlier;
    if (cost > bound) {
      cost = std::numeric_limits<double>::infinity();
      return false;
    }
    return true;
  });
  *num_inliers = inliers;
  if (num_tested != nullptr) *num_tested = tested;
  return cost;
}

// MSAC cost with the SPRT running alongside, visiting the data cyclically from `start` (so that
// the test does not always see the same first data). Returns +inf when the model is rejected
// by SPRT (*rejected = true, with the counts seen so far) or when its cost exceeds `bound`.
template <typename Estimator>
double MsacCostWithSprt(const Estimator& estimator,
                        const std::vector<typename Estimator::Datum>& data,
                        const typename Estimator::Model& model, double threshold_sq, double bound,
                        const SprtTest& sprt, int start, int* num_inliers, bool* rejected,
                        int* num_tested) {
  const int n = static_cast<int>(data.size());
  double cost = 0.0, likelihood_ratio = 1.0;
  int inliers = 0, tested = 0;
  *rejected = false;
  const double consistent = sprt.consistent_factor(), inconsistent = sprt.inconsistent_factor();
  // Without branches on the inlier test, which a branch predictor cannot learn.
  const auto visit = [&](int, double e) {
    ++tested;
    const bool inlier = e < threshold_sq;
    cost += inlier ? e : threshold_sq;
    inliers += inlier;
    likelihood_ratio *= inlier ? consistent : inconsistent;
    if (likelihood_ratio > sprt.threshold()) {
      *rejected = true;
      return false;
    }
    return !(cost > bound);
  };
  const bool complete = VisitErrors(estimator, data, model, start, n, visit) &&
                        VisitErrors(estimator, data, model, 0, start, visit);
  *num_inliers = inliers;
  *num_tested = tested;
  return complete ? cost : std::numeric_limits<double>::infinity();
}

}  // namespace internal

// `sample_pool` (optional, one entry per datum): minimal samples are drawn only from the data
// marked 1, while models are still scored on all data. For a model whose inliers are known to
// lie among those (the essential matrix among the fundamental matrix's inliers, a dominant
// plane among the epipolar inliers), the adaptive iteration count then follows the inlier
// ratio within the pool, which is far higher than over all data. min_num_inliers for giving
// up is taken as a count within the pool.
template <typename Estimator>
RansacReport<typename Estimator::Model> Ransac(const RansacOptions& options,
                                               const Estimator& estimator,
                                               const std::vector<typename Estimator::Datum>& data,
                                               const std::vector<char>* sample_pool = nullptr) {
  static_assert(IsEstimator<Estimator>::value,
                "Estimator must provide Datum, Model, kSampleSize, Fit and SquaredError");
  using Datum = typename Estimator::Datum;
  using Model = typename Estimator::Model;
  constexpr int kSampleSize = Estimator::kSampleSize;
  static_assert(kSampleSize >= 1, "kSampleSize must be positive");
  options.Check();

  RansacReport<Model> report;
  const int n = static_cast<int>(data.size());
  report.inlier_mask.assign(data.size(), 0);
  std::vector<int> indices;  // the data samples are drawn from
  if (sample_pool != nullptr) {
    PROJ_CHECK(sample_pool->size() == data.size(), "Ransac: sample pool of "
                                                       << sample_pool->size() << " for "
                                                       << data.size() << " data");
    for (int i = 0; i < n; ++i) {
      if ((*sample_pool)[i]) indices.push_back(i);
    }
  } else {
    indices.resize(n);
    std::iota(indices.begin(), indices.end(), 0);
  }
  const int pool_size = static_cast<int>(indices.size());
  if (n < kSampleSize || pool_size < kSampleSize) return report;

  const double threshold_sq = options.max_error * options.max_error;
  std::mt19937_64 rng(options.seed);
  std::array<Datum, kSampleSize> sample;
  std::vector<Model> models;
  models.reserve(16);
  std::vector<Datum> inliers;  // local-optimization buffer, grown once
  constexpr bool kCanRefit = HasRefit<Estimator>::value;
  if (kCanRefit && options.local_optimization) inliers.reserve(data.size());

  bool have_model = false;
  Model best_model{};
  double best_cost = std::numeric_limits<double>::infinity();
  int best_num_inliers = 0;
  int required_iterations = options.max_iterations;
  SprtTest sprt(options.sprt_initial_delta, FitCostInErrorEvaluations<Estimator>::value);
  long long num_models = 0;

  // Iterated least squares from `model` (whose cost/inliers are the current best).
  const auto local_optimize = [&](const Model& start) {
    if constexpr (kCanRefit) {
      Model current = start;
      const int steps = options.local_optimization_steps;
      for (int step = 0; step < steps; ++step) {
        const double factor = steps == 1 ? 1.0
                                         : options.local_optimization_threshold_factor -
                                               (options.local_optimization_threshold_factor - 1.0) *
                                                   step / (steps - 1);
        const double step_threshold_sq = threshold_sq * factor * factor;
        inliers.clear();
        internal::VisitErrors(estimator, data, current, 0, n, [&](int i, double e) {
          if (e < step_threshold_sq) inliers.push_back(data[i]);
          return true;
        });
        if (static_cast<int>(inliers.size()) <= kSampleSize) return;
        Model refined;
        if (!estimator.Refit(inliers, current, &refined)) return;
        int num_inliers = 0;
        const double cost =
            internal::MsacCost(estimator, data, refined, threshold_sq, best_cost, &num_inliers);
        if (!(cost < best_cost)) return;
        best_cost = cost;
        best_model = refined;
        best_num_inliers = num_inliers;
        current = refined;
      }
    } else {
      (void)start;
    }
  };

  // The inlier ratio among the data samples are drawn from, for the adaptive count.
  const auto sampled_inlier_ratio = [&](const Model& model, int num_inliers) -> double {
    if (sample_pool == nullptr) return static_cast<double>(num_inliers) / n;
    int in_pool = 0;
    internal::VisitErrors(estimator, data, model, 0, n, [&](int i, double e) {
      in_pool += (*sample_pool)[i] && e < threshold_sq;
      return true;
    });
    return static_cast<double>(in_pool) / pool_size;
  };

  // Samples after which a model of min_num_inliers inliers would likely have been found.
  const int give_up_iterations =
      options.give_up_below_min_num_inliers
          ? RansacRequiredIterations(
                std::min(1.0, static_cast<double>(options.min_num_inliers) / pool_size),
                kSampleSize, options.confidence, options.max_iterations)
          : options.max_iterations;
  int iteration = 0;
  for (; iteration < options.max_iterations; ++iteration) {
    if (iteration >= options.min_iterations && iteration >= required_iterations) break;
    if (iteration >= options.min_iterations && iteration >= give_up_iterations &&
        best_num_inliers < options.min_num_inliers) {
      break;
    }
    // Partial Fisher-Yates: a uniform sample without replacement in O(kSampleSize).
    for (int i = 0; i < kSampleSize; ++i) {
      std::uniform_int_distribution<int> pick(i, pool_size - 1);
      std::swap(indices[i], indices[pick(rng)]);
      sample[i] = data[indices[i]];
    }
    models.clear();
    estimator.Fit(sample, &models);
    num_models += static_cast<long long>(models.size());
    for (const Model& model : models) {
      int num_inliers = 0, num_tested = 0;
      double cost;
      if (options.sprt && sprt.active()) {
        bool rejected = false;
        std::uniform_int_distribution<int> pick_start(0, n - 1);
        cost = internal::MsacCostWithSprt(estimator, data, model, threshold_sq, best_cost, sprt,
                                          pick_start(rng), &num_inliers, &rejected, &num_tested);
      } else {
        cost = internal::MsacCost(estimator, data, model, threshold_sq, best_cost, &num_inliers,
                                  &num_tested);
      }
      if (!(cost < best_cost)) {
        // Not the best: evidence for delta (consistency with a bad hypothesis), also while the
        // test is still inactive.
        if (options.sprt) {
          sprt.SetModelsPerSample(static_cast<double>(num_models) / (iteration + 1));
          sprt.RecordRejection(num_inliers, num_tested);
        }
        continue;
      }
      have_model = true;
      best_cost = cost;
      best_model = model;
      best_num_inliers = num_inliers;
      if (options.local_optimization) local_optimize(model);
      sprt.SetModelsPerSample(static_cast<double>(num_models) / (iteration + 1));
      sprt.SetEpsilon(static_cast<double>(best_num_inliers) / n);
      required_iterations = RansacRequiredIterations(
          sampled_inlier_ratio(best_model, best_num_inliers), kSampleSize, options.confidence,
          options.max_iterations, options.sprt ? sprt.PassProbability() : 1.0);
    }
  }
  report.num_iterations = iteration;
  if (!have_model) return report;

  report.model = best_model;
  int num_inliers = 0;
  internal::VisitErrors(estimator, data, best_model, 0, n, [&](int i, double e) {
    if (e < threshold_sq) {
      report.inlier_mask[i] = 1;
      ++num_inliers;
    }
    return true;
  });
  report.num_inliers = num_inliers;
  report.success = num_inliers >= std::max(options.min_num_inliers, kSampleSize) &&
                   num_inliers >= options.min_inlier_ratio * n;
  return report;
}

}  // namespace proj
