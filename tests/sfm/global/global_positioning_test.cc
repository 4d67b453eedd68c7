#include "sfm/global/global_positioning.h"

#include <limits>
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
