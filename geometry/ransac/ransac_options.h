// Options and result of the robust estimators (geometry/ransac/ransac.h and the Estimate*
// functions built on it).
#pragma once

#include <cstdint>
#include <vector>

namespace proj {

struct RansacOptions {
  // Inlier threshold on the estimator's error (not squared), in the unit documented by the
  // Estimate* function used (e.g. pixels for EstimateFundamentalMatrix, normalized image units
  // for EstimateEssentialMatrix).
  double max_error = 4.0;
  // Probability of drawing at least one all-inlier sample, for the adaptive iteration count;
  // in (0, 1).
  double confidence = 0.999;
  // Iterations (samples drawn) are at least min_iterations and at most max_iterations; in
  // between, the count adapts to the best inlier ratio found so far.
  int min_iterations = 100;
  int max_iterations = 10000;
  // Success requires at least max(min_num_inliers, sample size) inliers and an inlier ratio of
  // at least min_inlier_ratio (in [0, 1]).
  int min_num_inliers = 0;
  double min_inlier_ratio = 0.0;
  // Give up early when no model with min_num_inliers inliers is likely: once the iterations
  // that would have drawn an all-inlier sample of such a model with probability `confidence`
  // are done (at least min_iterations) and the best model still has fewer inliers. Callers
  // that only want models of that size (two-view verification rejecting unrelated pairs)
  // then stop after a few hundred samples instead of max_iterations.
  bool give_up_below_min_num_inliers = false;
  // LO-RANSAC (Chum, Matas, Kittler, DAGM 2003; iterated least squares with a shrinking
  // threshold as in Lebeda, Matas, Chum, BMVC 2012): whenever a new best model is found, refit it
  // local_optimization_steps times on its inliers with thresholds shrinking linearly from
  // local_optimization_threshold_factor * max_error to max_error, keeping refits that lower the
  // MSAC cost. Only used by estimators that provide a least-squares Refit.
  bool local_optimization = true;
  int local_optimization_steps = 4;
  double local_optimization_threshold_factor = 3.0;
  // SPRT early rejection of bad hypotheses (Chum & Matas, PAMI 2008; sprt.h): a hypothesis
  // is abandoned after a few data once it is likely bad, instead of being scored on all data.
  // The adaptive iteration count accounts for the small chance of rejecting a good one.
  // sprt_initial_delta: prior probability that a datum fits a bad hypothesis, in (0, 0.5].
  bool sprt = true;
  double sprt_initial_delta = 0.05;
  // Same seed + same input => same output. Each call owns its std::mt19937_64(seed).
  uint64_t seed = 0;

  // Throws InputError naming the offending field.
  void Check() const;
};

template <typename Model>
struct RansacReport {
  // False when fewer data than the sample size were given, no model was found, or the best one
  // misses min_num_inliers / min_inlier_ratio; the other fields then describe the best attempt
  // (inlier_mask is all zeros when there was none).
  bool success = false;
  Model model{};
  std::vector<char> inlier_mask;  // one entry per datum: 1 = inlier of `model`
  int num_inliers = 0;
  int num_iterations = 0;  // samples drawn
};

}  // namespace proj
