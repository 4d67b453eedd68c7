// Exact nearest-neighbour queries over a fixed set of 3D points (a k-d tree: median splits on
// the widest axis). Built in O(n log n); a k-nearest query costs about O(log n + k). Used to
// pair images by GPS position without looking at all n^2 pairs.
#pragma once

#include <vector>

#include <Eigen/Core>

namespace proj {

class PointKdTree {
 public:
  // Copies `points`; indices in query results refer to this vector.
  explicit PointKdTree(std::vector<Eigen::Vector3d> points);

  // Indices of the (at most) `k` points nearest to `query` within `max_distance` (inclusive;
  // infinity for no limit), nearest first; ties broken by the smaller index. `exclude` (an
  // index, or -1) is left out, so a point's own neighbours can be asked for.
  std::vector<int> Nearest(const Eigen::Vector3d& query, int k, double max_distance,
                           int exclude = -1) const;

  int size() const { return static_cast<int>(points_.size()); }
  const Eigen::Vector3d& point(int index) const { return points_[index]; }

 private:
  struct Node {
    int begin = 0, end = 0;  // range in order_ of the leaf's points, or of the subtree
    int axis = -1;           // split axis, -1 for a leaf
    double split = 0;
    int left = -1, right = -1;
  };
  int Build(int begin, int end);

  std::vector<Eigen::Vector3d> points_;
  std::vector<int> order_;  // point indices, grouped by node
  std::vector<Node> nodes_;
};

}  // namespace proj
