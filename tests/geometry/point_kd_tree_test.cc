#include "geometry/spatial/point_kd_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace proj {
namespace {

std::vector<int> BruteForce(const std::vector<Eigen::Vector3d>& points, const Eigen::Vector3d& q,
                            int k, double max_distance, int exclude) {
  std::vector<std::pair<double, int>> all;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    const double d = (points[i] - q).squaredNorm();
    if (i != exclude && d <= max_distance * max_distance) all.push_back({d, i});
  }
  std::sort(all.begin(), all.end());
  std::vector<int> result;
  for (int i = 0; i < std::min<int>(k, all.size()); ++i) result.push_back(all[i].second);
  return result;
}

TEST(PointKdTree, MatchesBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coordinate(-100, 100);
  std::vector<Eigen::Vector3d> points;
  for (int i = 0; i < 2000; ++i) {
    // Rounded coordinates make duplicates and ties, which the tie rule must order.
    points.emplace_back(std::round(coordinate(rng) / 4), std::round(coordinate(rng) / 4),
                        i % 3 == 0 ? 0.0 : std::round(coordinate(rng) / 20));
  }
  const PointKdTree tree(points);
  const double inf = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < 300; ++trial) {
    const int exclude = trial % 2 == 0 ? trial : -1;
    const Eigen::Vector3d q = trial % 3 == 0 ? points[trial]
                                             : Eigen::Vector3d(coordinate(rng) / 4, coordinate(rng) / 4, 0);
    const int k = 1 + trial % 25;
    const double max_distance = trial % 4 == 0 ? 3.0 : inf;
    EXPECT_EQ(tree.Nearest(q, k, max_distance, exclude), BruteForce(points, q, k, max_distance, exclude))
        << trial;
  }
}

TEST(PointKdTree, EdgeCases) {
  const PointKdTree empty({});
  EXPECT_TRUE(empty.Nearest(Eigen::Vector3d::Zero(), 3, 1e9).empty());
  // Identical points stay in one leaf; every one is found.
  const PointKdTree same(std::vector<Eigen::Vector3d>(50, Eigen::Vector3d(1, 2, 3)));
  EXPECT_EQ(same.Nearest(Eigen::Vector3d(1, 2, 3), 100, 0.0).size(), 50u);
  EXPECT_EQ(same.Nearest(Eigen::Vector3d(1, 2, 3), 100, 0.0, 7).size(), 49u);
  EXPECT_TRUE(same.Nearest(Eigen::Vector3d(0, 0, 0), 0, 1e9).empty());
}

}  // namespace
}  // namespace proj
