#include "geometry/ransac/ransac.h"

#include <random>

#include <gtest/gtest.h>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include "core/check.h"

namespace proj {
namespace {

// Toy estimator: a 2D line a x + b y + c = 0 with (a, b) unit, from two points.
struct LineEstimator {
  using Datum = Eigen::Vector2d;
  using Model = Eigen::Vector3d;
  static constexpr int kSampleSize = 2;
  void Fit(const std::array<Datum, 2>& sample, std::vector<Model>* models) const {
    const Eigen::Vector2d d = sample[1] - sample[0];
    if (d.norm() == 0.0) return;
    const Eigen::Vector2d normal = Eigen::Vector2d(-d.y(), d.x()).normalized();
    models->emplace_back(normal.x(), normal.y(), -normal.dot(sample[0]));
  }
  double SquaredError(const Datum& p, const Model& line) const {
    const double e = line.x() * p.x() + line.y() * p.y() + line.z();
    return e * e;
  }
};

// The same with a total-least-squares refit, enabling local optimization.
struct RefittingLineEstimator : LineEstimator {
  bool Refit(const std::vector<Datum>& inliers, const Model& /*initial*/, Model* refined) const {
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    for (const auto& p : inliers) mean += p;
    mean /= static_cast<double>(inliers.size());
    Eigen::Matrix2d scatter = Eigen::Matrix2d::Zero();
    for (const auto& p : inliers) scatter += (p - mean) * (p - mean).transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(scatter);
    const Eigen::Vector2d normal = eigen.eigenvectors().col(0);
    *refined = Eigen::Vector3d(normal.x(), normal.y(), -normal.dot(mean));
    return true;
  }
};

struct NotAnEstimator {
  using Datum = int;
  using Model = int;
  static constexpr int kSampleSize = 1;
};

static_assert(IsEstimator<LineEstimator>::value);
static_assert(IsEstimator<RefittingLineEstimator>::value);
static_assert(!IsEstimator<NotAnEstimator>::value);
static_assert(!HasRefit<LineEstimator>::value);
static_assert(HasRefit<RefittingLineEstimator>::value);

// Points on y = 0.5 x + 1 with Gaussian noise, then uniform outliers; first `num_inliers` are
// the inliers.
std::vector<Eigen::Vector2d> LineData(std::mt19937_64& rng, int num_inliers, int num_outliers,
                                      double noise) {
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  std::normal_distribution<double> n(0.0, noise);
  std::vector<Eigen::Vector2d> data;
  for (int i = 0; i < num_inliers; ++i) {
    const double x = u(rng);
    data.emplace_back(x, 0.5 * x + 1.0 + n(rng));
  }
  for (int i = 0; i < num_outliers; ++i) data.emplace_back(u(rng), u(rng));
  return data;
}

double LineAngleError(const Eigen::Vector3d& line) {
  const Eigen::Vector2d truth = Eigen::Vector2d(-0.5, 1.0).normalized();
  return std::acos(std::min(1.0, std::abs(truth.dot(line.head<2>()))));
}

TEST(RansacRequiredIterations, MatchesClosedForm) {
  // log(0.001) / log(1 - 0.5^5) = 217.6 -> 218.
  EXPECT_EQ(RansacRequiredIterations(0.5, 5, 0.999, 100000), 218);
  EXPECT_EQ(RansacRequiredIterations(1.0, 5, 0.999, 100000), 0);
  EXPECT_EQ(RansacRequiredIterations(0.0, 5, 0.999, 1234), 1234);
  EXPECT_EQ(RansacRequiredIterations(0.01, 7, 0.999, 5000), 5000);
}

TEST(Ransac, FindsLineUnderHalfOutliersWithCorrectMask) {
  std::mt19937_64 rng(1);
  const auto data = LineData(rng, 200, 200, 0.05);
  RansacOptions options;
  options.max_error = 0.2;
  const auto report = Ransac(options, RefittingLineEstimator{}, data);
  ASSERT_TRUE(report.success);
  EXPECT_LT(LineAngleError(report.model), 0.01);
  ASSERT_EQ(report.inlier_mask.size(), data.size());
  int true_positives = 0, false_positives = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    if (report.inlier_mask[i]) (i < 200 ? true_positives : false_positives)++;
  }
  EXPECT_EQ(report.num_inliers, true_positives + false_positives);
  EXPECT_GE(true_positives, 195);
  EXPECT_LE(false_positives, 8);  // uniform outliers that happen to lie near the line
  // Adaptive termination: ~50% inliers and k = 2 need ~25 samples, so min_iterations rules.
  EXPECT_EQ(report.num_iterations, options.min_iterations);
}

TEST(Ransac, SameSeedSameResultDifferentSeedStillCorrect) {
  std::mt19937_64 rng(2);
  const auto data = LineData(rng, 100, 100, 0.05);
  RansacOptions options;
  options.max_error = 0.2;
  const auto a = Ransac(options, LineEstimator{}, data);
  const auto b = Ransac(options, LineEstimator{}, data);
  EXPECT_EQ(a.model, b.model);
  EXPECT_EQ(a.inlier_mask, b.inlier_mask);
  options.seed = 99;
  const auto c = Ransac(options, LineEstimator{}, data);
  ASSERT_TRUE(c.success);
  EXPECT_LT(LineAngleError(c.model), 0.02);
}

TEST(Ransac, LocalOptimizationImprovesAccuracy) {
  double error_plain = 0.0, error_lo = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    std::mt19937_64 rng(100 + trial);
    const auto data = LineData(rng, 300, 300, 0.1);
    RansacOptions options;
    options.max_error = 0.3;
    options.seed = trial;
    options.min_iterations = 20;
    error_plain += LineAngleError(Ransac(options, LineEstimator{}, data).model);
    error_lo += LineAngleError(Ransac(options, RefittingLineEstimator{}, data).model);
  }
  EXPECT_LT(error_lo, 0.5 * error_plain);
}

TEST(Ransac, HonoursIterationLimitsAndSuccessCriteria) {
  std::mt19937_64 rng(3);
  const auto data = LineData(rng, 20, 180, 0.01);  // 10% inliers
  RansacOptions options;
  options.max_error = 0.05;
  options.min_iterations = 5;
  options.max_iterations = 50;
  auto report = Ransac(options, LineEstimator{}, data);
  EXPECT_EQ(report.num_iterations, 50);
  options.max_iterations = 2000;
  options.min_inlier_ratio = 0.5;
  report = Ransac(options, LineEstimator{}, data);
  EXPECT_FALSE(report.success);       // 10% < 50%
  EXPECT_GE(report.num_inliers, 18);  // the line was still found (no refit: may miss one or two)
  EXPECT_LT(LineAngleError(report.model), 0.01);
}

TEST(Ransac, GivesUpWhenNoModelOfTheWantedSizeIsLikely) {
  std::mt19937_64 rng(5);
  RansacOptions options;
  options.max_error = 0.05;
  options.min_iterations = 10;
  options.max_iterations = 5000;
  options.min_num_inliers = 20;
  options.give_up_below_min_num_inliers = true;
  // Noise only (one chance line of a few points): stops after the samples that would have
  // found a 20-of-40 line, not at max_iterations.
  const auto noise = LineData(rng, 3, 37, 0.01);
  const auto report = Ransac(options, LineEstimator{}, noise);
  EXPECT_FALSE(report.success);
  EXPECT_EQ(report.num_iterations,
            std::max(options.min_iterations,
                     RansacRequiredIterations(20.0 / 40, 2, options.confidence, 5000)));
  // A line of 25 inliers among 40 is still found.
  const auto line = LineData(rng, 25, 15, 0.01);
  const auto found = Ransac(options, LineEstimator{}, line);
  EXPECT_TRUE(found.success);
  EXPECT_GE(found.num_inliers, 23);
  EXPECT_LT(LineAngleError(found.model), 0.01);
}

// Counts SquaredError calls, to observe the SPRT early rejection.
struct CountingLineEstimator : RefittingLineEstimator {
  mutable long long num_evaluations = 0;
  double SquaredError(const Datum& p, const Model& line) const {
    ++num_evaluations;
    return LineEstimator::SquaredError(p, line);
  }
};

TEST(Ransac, SprtSkipsMostEvaluationsOfBadHypotheses) {
  std::mt19937_64 rng(4);
  const auto data = LineData(rng, 300, 2700, 0.02);  // 10% inliers
  RansacOptions options;
  options.max_error = 0.06;
  options.min_iterations = 500;
  CountingLineEstimator with_sprt, without_sprt;
  const auto a = Ransac(options, with_sprt, data);
  options.sprt = false;
  const auto b = Ransac(options, without_sprt, data);
  ASSERT_TRUE(a.success);
  ASSERT_TRUE(b.success);
  EXPECT_LT(LineAngleError(a.model), 0.01);
  EXPECT_NEAR(a.num_inliers, b.num_inliers, 5);
  EXPECT_LT(with_sprt.num_evaluations, without_sprt.num_evaluations / 3);
}

// The same line estimator with the batch error interface, which Ransac then uses.
struct BatchLineEstimator : RefittingLineEstimator {
  void SquaredErrors(const Datum* data, int count, const Model& line, double* errors) const {
    for (int k = 0; k < count; ++k) errors[k] = SquaredError(data[k], line);
  }
};
static_assert(HasSquaredErrors<BatchLineEstimator>::value);
static_assert(!HasSquaredErrors<RefittingLineEstimator>::value);

TEST(Ransac, BatchErrorsGiveTheSameResult) {
  std::mt19937_64 rng(8);
  const auto data = LineData(rng, 70, 130, 0.05);  // 200 data: several error blocks
  RansacOptions options;
  options.max_error = 0.2;
  options.seed = 3;
  const auto single = Ransac(options, RefittingLineEstimator{}, data);
  const auto batch = Ransac(options, BatchLineEstimator{}, data);
  ASSERT_TRUE(single.success);
  EXPECT_EQ(single.inlier_mask, batch.inlier_mask);
  EXPECT_EQ(single.num_iterations, batch.num_iterations);
  EXPECT_EQ(single.model, batch.model);
}

TEST(Ransac, SamplePoolDrawsOnlyFromItAndScoresAll) {
  std::mt19937_64 rng(9);
  // 40 inliers among 400: about 800 samples are needed for an all-inlier pair at 0.999.
  const auto data = LineData(rng, 40, 360, 0.05);
  std::vector<char> pool(data.size(), 0);
  for (int i = 0; i < 50; ++i) pool[i] = 1;  // the inliers and 10 outliers
  RansacOptions options;
  options.max_error = 0.2;
  options.min_iterations = 1;
  const auto pooled = Ransac(options, RefittingLineEstimator{}, data, &pool);
  ASSERT_TRUE(pooled.success);
  EXPECT_LT(LineAngleError(pooled.model), 0.01);
  EXPECT_GE(pooled.num_inliers, 40);  // counted on all data, not only the pool
  const auto plain = Ransac(options, RefittingLineEstimator{}, data);
  EXPECT_LT(pooled.num_iterations * 10, plain.num_iterations);
  // A pool smaller than the sample is an unsuccessful report.
  std::vector<char> tiny(data.size(), 0);
  tiny[0] = 1;
  EXPECT_FALSE(Ransac(options, LineEstimator{}, data, &tiny).success);
}

TEST(Ransac, TooFewDataIsAnUnsuccessfulReport) {
  const std::vector<Eigen::Vector2d> data = {Eigen::Vector2d(0, 0)};
  const auto report = Ransac(RansacOptions{}, LineEstimator{}, data);
  EXPECT_FALSE(report.success);
  EXPECT_EQ(report.inlier_mask, std::vector<char>(1, 0));
  EXPECT_EQ(report.num_iterations, 0);
}

TEST(RansacOptions, CheckRejectsBadValues) {
  RansacOptions options;
  options.Check();
  options.max_error = 0.0;
  EXPECT_THROW(options.Check(), InputError);
  options = RansacOptions{};
  options.confidence = 1.0;
  EXPECT_THROW(options.Check(), InputError);
  options = RansacOptions{};
  options.max_iterations = options.min_iterations - 1;
  EXPECT_THROW(options.Check(), InputError);
  options = RansacOptions{};
  options.local_optimization_threshold_factor = 0.5;
  EXPECT_THROW(options.Check(), InputError);
  options = RansacOptions{};
  options.sprt_initial_delta = 0.0;
  EXPECT_THROW(options.Check(), InputError);
  std::vector<Eigen::Vector2d> data(10);
  options = RansacOptions{};
  options.min_inlier_ratio = 2.0;
  EXPECT_THROW(Ransac(options, LineEstimator{}, data), InputError);
}

}  // namespace
}  // namespace proj
