#include "sfm/global/rotation_averaging.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace proj {
namespace {

constexpr double kDeg = M_PI / 180;

Eigen::Quaterniond RandomRotation(std::mt19937_64* rng, double max_angle_rad) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0, max_angle_rad);
  const Eigen::Vector3d axis = Eigen::Vector3d(normal(*rng), normal(*rng), normal(*rng)).normalized();
  return Eigen::Quaterniond(Eigen::AngleAxisd(uniform(*rng), axis));
}

struct RotationProblem {
  std::vector<Eigen::Quaterniond> truth;
  std::vector<RelativeRotation> edges;
  std::vector<char> is_outlier;  // per edge
};

// `num_images` random rotations; each pair is an edge with probability `density`, its
// measurement perturbed by up to `noise_deg`, or replaced by a random rotation with
// probability `outlier_ratio`. A chain of inlier edges keeps the graph connected.
RotationProblem MakeProblem(int num_images, double density, double noise_deg, double outlier_ratio,
                            uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  RotationProblem problem;
  for (int i = 0; i < num_images; ++i) problem.truth.push_back(RandomRotation(&rng, M_PI));
  for (int i = 0; i < num_images; ++i) {
    for (int j = i + 1; j < num_images; ++j) {
      if (j != i + 1 && uniform(rng) > density) continue;
      const bool outlier = j != i + 1 && uniform(rng) < outlier_ratio;
      const Eigen::Quaterniond exact = problem.truth[j] * problem.truth[i].conjugate();
      const Eigen::Quaterniond measured =
          outlier ? RandomRotation(&rng, M_PI) : RandomRotation(&rng, noise_deg * kDeg) * exact;
      problem.edges.push_back({i, j, measured, 100});
      problem.is_outlier.push_back(outlier);
    }
  }
  return problem;
}

// Largest angle (degrees) between estimated and true rotations after removing the gauge
// (the estimate's frame is the truth's up to one global rotation, taken from image 0).
double MaxErrorDeg(const std::vector<Eigen::Quaterniond>& truth,
                   const std::vector<Eigen::Quaterniond>& estimate) {
  const Eigen::Quaterniond gauge = estimate[0].conjugate() * truth[0];
  double worst = 0;
  for (size_t i = 0; i < truth.size(); ++i) {
    worst = std::max(worst, (estimate[i] * gauge).angularDistance(truth[i]) / kDeg);
  }
  return worst;
}

TEST(RotationAveraging, SpanningTreeIsExactWithoutNoise) {
  const RotationProblem problem = MakeProblem(20, 0.3, 0, 0, 1);
  std::vector<char> reached;
  const auto rotations = SpanningTreeRotations(20, problem.edges, &reached);
  for (char r : reached) EXPECT_TRUE(r);
  EXPECT_LT(MaxErrorDeg(problem.truth, rotations), 1e-6);
}

TEST(RotationAveraging, RecoversRotationsUnderNoiseAndOutliers) {
  const RotationProblem problem = MakeProblem(40, 0.4, 2.0, 0.2, 7);
  int outliers = 0;
  for (char o : problem.is_outlier) outliers += o;
  ASSERT_GT(outliers, 20);
  // The tree alone follows whatever edges it picked, outliers included: far off.
  const auto tree = SpanningTreeRotations(40, problem.edges);
  RotationAveragingSummary summary;
  const auto averaged = AverageRotations(RotationAveragingOptions(), 40, problem.edges, &summary);
  EXPECT_EQ(summary.num_images, 40);
  EXPECT_GT(MaxErrorDeg(problem.truth, tree), 10);
  // Noise of up to 2 degrees per edge, averaged over ~15 edges per image.
  EXPECT_LT(MaxErrorDeg(problem.truth, averaged), 1.5);
  // The consistency check then separates the outliers from the inliers.
  const auto kept = ConsistentEdges(problem.edges, averaged, 10);
  int kept_outliers = 0;
  for (const auto& edge : kept) {
    for (size_t e = 0; e < problem.edges.size(); ++e) {
      if (problem.edges[e].image1 == edge.image1 && problem.edges[e].image2 == edge.image2) {
        kept_outliers += problem.is_outlier[e];
      }
    }
  }
  EXPECT_EQ(kept_outliers, 0);
  EXPECT_EQ(static_cast<int>(kept.size()), static_cast<int>(problem.edges.size()) - outliers);
}

TEST(ViewGraphCleanup, LargestComponentAndEdgesWithin) {
  // Images 0-1-2 linked, 3-4 linked, 5 alone.
  const Eigen::Quaterniond id = Eigen::Quaterniond::Identity();
  const std::vector<RelativeRotation> edges = {{0, 1, id, 1}, {1, 2, id, 1}, {3, 4, id, 1}};
  const std::vector<char> component = LargestConnectedComponent(6, edges);
  EXPECT_EQ(component, (std::vector<char>{1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(EdgesWithin(edges, component).size(), 2u);
  EXPECT_EQ(LargestConnectedComponent(3, std::vector<ImagePair>{}), (std::vector<char>{0, 0, 0}));
}

}  // namespace
}  // namespace proj
