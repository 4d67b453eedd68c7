#include "sfm/global/global_positioning.h"

#include <limits>
#include <map>
#include <random>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "tests/sfm/global/ring_view_graph.h"

namespace proj {
namespace {

struct PositioningProblem {
  std::vector<Eigen::Vector3d> centres;
  std::vector<Eigen::Vector3d> points;
  std::vector<std::vector<BearingObservation>> tracks;
};

// Cameras on a ring of radius 10 around points in a 4 m box; every camera sees every point,
// bearings perturbed by `noise_rad`; a fraction `outlier_ratio` of observations replaced by
// random bearings.
PositioningProblem MakeProblem(int num_images, int num_points, double noise_rad,
                               double outlier_ratio, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(-2, 2), unit(0, 1);
  PositioningProblem problem;
  for (int i = 0; i < num_images; ++i) {
    const double a = 2 * M_PI * i / num_images;
    problem.centres.emplace_back(10 * std::cos(a), 10 * std::sin(a), uniform(rng));
  }
  for (int p = 0; p < num_points; ++p) {
    problem.points.emplace_back(uniform(rng), uniform(rng), uniform(rng));
    std::vector<BearingObservation> track;
    for (int i = 0; i < num_images; ++i) {
      Eigen::Vector3d bearing = (problem.points[p] - problem.centres[i]).normalized();
      bearing = (bearing + noise_rad * Eigen::Vector3d(normal(rng), normal(rng), normal(rng))).normalized();
      if (unit(rng) < outlier_ratio) {
        bearing = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
      }
      track.push_back({i, bearing});
    }
    problem.tracks.push_back(track);
  }
  return problem;
}

// Positions the problem from random starts; the largest relative centre error, or +inf.
double PositionAndMeasure(const PositioningProblem& problem) {
  GlobalPositioningOptions options;
  options.num_threads = 1;
  const GlobalPositioningResult result =
      PositionCamerasAndPoints(options, static_cast<int>(problem.centres.size()), problem.tracks);
  EXPECT_TRUE(result.success) << result.message;
  return result.success ? testing::MaxAlignedDistance(problem.centres, result.centres, 10)
                        : std::numeric_limits<double>::infinity();
}

TEST(GlobalPositioning, RecoversCentresFromRandomStartUpToSimilarity) {
  EXPECT_LT(PositionAndMeasure(MakeProblem(12, 150, 0.002, 0, 3)), 0.01);
}

TEST(GlobalPositioning, WrongBearingsAreCappedByTheRobustLoss) {
  EXPECT_LT(PositionAndMeasure(MakeProblem(12, 150, 0.002, 0.1, 5)), 0.03);
}

// Two halves of the ring that share no point: the bearings leave their relative placement and
// scale free (as flight lines tied by too few tracks), the priors fix them, in their frame (the
// bearings' world frame is turned against the priors': rotation averaging fixes its own).
TEST(GlobalPositioning, PriorsPlaceWhatTheBearingsLeaveFree) {
  PositioningProblem problem = MakeProblem(12, 150, 0.002, 0, 3);
  for (size_t p = 0; p < problem.tracks.size(); ++p) {
    std::vector<BearingObservation> half;
    for (const BearingObservation& observation : problem.tracks[p]) {
      if ((observation.image_id < 6) == (p % 2 == 0)) half.push_back(observation);
    }
    problem.tracks[p] = half;
  }
  std::mt19937_64 rng(9);
  std::normal_distribution<double> normal(0, 0.2);
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  const Eigen::Vector3d shift(100, -50, 20);
  std::map<int, PositionPrior> priors;
  for (int i = 0; i < 12; ++i) {
    priors[i].position = turn * problem.centres[i] + shift + Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
    priors[i].sigma = Eigen::Vector3d::Constant(0.2);
  }
  GlobalPositioningOptions options;
  options.num_threads = 1;
  const GlobalPositioningResult free = PositionCamerasAndPoints(options, 12, problem.tracks);
  ASSERT_TRUE(free.success) << free.message;
  EXPECT_FALSE(free.used_priors);
  EXPECT_GT(testing::MaxAlignedDistance(problem.centres, free.centres, 10), 0.3);  // 6 m here

  const GlobalPositioningResult fixed = PositionCamerasAndPoints(options, 12, problem.tracks, priors);
  ASSERT_TRUE(fixed.success) << fixed.message;
  EXPECT_TRUE(fixed.used_priors);
  // The fixes are off by 0.2 m per axis (as 1.5 m of GPS at 80 m): the halves take their
  // places (to 0.6 m here: each half's scale and offset come from its six fixes alone), and
  // the frame is the priors' to within what the fixes tell.
  EXPECT_LT(testing::MaxAlignedDistance(problem.centres, fixed.centres, 10), 0.1);
  for (int i = 0; i < 12; ++i) EXPECT_LT((fixed.centres[i] - (turn * problem.centres[i] + shift)).norm(), 1.0) << i;
  EXPECT_LT(fixed.priors_from_bearings.angularDistance(turn) * 180 / M_PI, 5.0);
}

// From a start near the answer (the fixes turned into the bearings' frame, off by 0.3 m here)
// the same centres as from random positions, in fewer iterations.
TEST(GlobalPositioning, StartFromTheFixesGivesTheSameCentres) {
  const PositioningProblem problem = MakeProblem(12, 150, 0.002, 0.05, 3);
  std::mt19937_64 rng(4);
  std::normal_distribution<double> normal(0, 0.3);
  std::vector<Eigen::Vector3d> start;
  for (const Eigen::Vector3d& centre : problem.centres) start.push_back(centre + Eigen::Vector3d(normal(rng), normal(rng), normal(rng)));
  GlobalPositioningOptions options;
  options.num_threads = 1;
  const GlobalPositioningResult from_random = PositionCamerasAndPoints(options, 12, problem.tracks);
  const GlobalPositioningResult from_start = PositionCamerasAndPoints(options, 12, problem.tracks, {}, start);
  ASSERT_TRUE(from_random.success && from_start.success);
  EXPECT_LT(testing::MaxAlignedDistance(problem.centres, from_start.centres, 10), 0.03);
  EXPECT_LT(from_start.num_iterations, from_random.num_iterations);
}

// A hovering drone's GPS: one fix for every image, which would pull all centres together.
TEST(GlobalPositioning, IgnoresPriorsThatDoNotSpread) {
  const PositioningProblem problem = MakeProblem(12, 150, 0.002, 0, 3);
  std::map<int, PositionPrior> priors;
  for (int i = 0; i < 12; ++i) priors[i].position = Eigen::Vector3d(1, 2, 3);
  GlobalPositioningOptions options;
  options.num_threads = 1;
  const GlobalPositioningResult result = PositionCamerasAndPoints(options, 12, problem.tracks, priors);
  EXPECT_FALSE(result.used_priors);
  EXPECT_LT(testing::MaxAlignedDistance(problem.centres, result.centres, 10), 0.01);
}

TEST(GlobalPositioning, SelectsLongestTracksUntilEveryImageHasEnough) {
  TrackSet tracks;
  // Track 0: images 0,1,2; track 1: images 0,1; track 2: images 1,2,3; track 3: image 3 and 4.
  tracks.tracks = {{{0, 0}, {1, 0}, {2, 0}}, {{0, 1}, {1, 1}}, {{1, 2}, {2, 1}, {3, 0}}, {{3, 1}, {4, 0}}};
  const std::vector<char> all(5, 1);
  EXPECT_EQ(SelectPositioningTracks(tracks, all, 2, 1), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(SelectPositioningTracks(tracks, all, 3, 10), (std::vector<int>{0, 2}));
  // Image 0 out of use: track 1 is too short, track 0 has two observations left.
  std::vector<char> without0 = all;
  without0[0] = 0;
  EXPECT_EQ(SelectPositioningTracks(tracks, without0, 3, 10), (std::vector<int>{2}));
}

}  // namespace
}  // namespace proj
