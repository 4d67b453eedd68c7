#include "geometry/spatial/point_kd_tree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>

namespace proj {
namespace {

constexpr int kLeafSize = 8;

// Max-heap order on (squared distance, index): the top is the worst kept candidate.
using Candidate = std::pair<double, int>;

}  // namespace

PointKdTree::PointKdTree(std::vector<Eigen::Vector3d> points) : points_(std::move(points)) {
  order_.resize(points_.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
  if (!points_.empty()) Build(0, static_cast<int>(points_.size()));
}

int PointKdTree::Build(int begin, int end) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{begin, end});
  if (end - begin <= kLeafSize) return id;
  Eigen::Vector3d low = points_[order_[begin]], high = low;
  for (int i = begin; i < end; ++i) {
    low = low.cwiseMin(points_[order_[i]]);
    high = high.cwiseMax(points_[order_[i]]);
  }
  int axis = 0;
  (high - low).maxCoeff(&axis);
  if (high[axis] == low[axis]) return id;  // all points equal: keep them in one leaf
  const int middle = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                   [&](int a, int b) { return points_[a][axis] < points_[b][axis]; });
  const double split = points_[order_[middle]][axis];
  const int left = Build(begin, middle);
  const int right = Build(middle, end);
  Node& node = nodes_[id];
  node.axis = axis;
  node.split = split;
  node.left = left;
  node.right = right;
  return id;
}

std::vector<int> PointKdTree::Nearest(const Eigen::Vector3d& query, int k, double max_distance,
                                      int exclude) const {
  std::vector<int> result;
  if (k <= 0 || points_.empty() || !(max_distance >= 0)) return result;
  const double max_squared = std::isinf(max_distance) ? std::numeric_limits<double>::infinity()
                                                      : max_distance * max_distance;
  std::priority_queue<Candidate> best;
  const auto bound = [&] {
    return static_cast<int>(best.size()) < k ? max_squared : std::min(max_squared, best.top().first);
  };
  // Depth-first, nearer child first; a subtree is skipped when the splitting plane is farther
  // than the current k-th candidate.
  std::vector<std::pair<int, double>> stack = {{0, 0.0}};  // node, squared distance to its cell
  while (!stack.empty()) {
    const auto [id, cell_squared] = stack.back();
    stack.pop_back();
    if (cell_squared > bound()) continue;
    const Node& node = nodes_[id];
    if (node.axis < 0) {
      for (int i = node.begin; i < node.end; ++i) {
        const int index = order_[i];
        if (index == exclude) continue;
        const Candidate candidate{(points_[index] - query).squaredNorm(), index};
        if (candidate.first > max_squared) continue;
        if (static_cast<int>(best.size()) < k) {
          best.push(candidate);
        } else if (candidate < best.top()) {
          best.pop();
          best.push(candidate);
        }
      }
      continue;
    }
    const double offset = query[node.axis] - node.split;
    const int near = offset < 0 ? node.left : node.right;
    const int far = offset < 0 ? node.right : node.left;
    stack.push_back({far, std::max(cell_squared, offset * offset)});
    stack.push_back({near, cell_squared});
  }
  result.resize(best.size());
  for (int i = static_cast<int>(best.size()) - 1; i >= 0; --i) {
    result[i] = best.top().second;
    best.pop();
  }
  return result;
}

}  // namespace proj
