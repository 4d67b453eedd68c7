#include "sfm/global/view_graph_cleanup.h"

#include <algorithm>

namespace proj {

std::vector<RelativeRotation> UsableRelativeRotations(const std::vector<VerifiedPair>& pairs,
                                                      int min_num_inliers, double planar_weight) {
  std::vector<RelativeRotation> edges;
  for (const VerifiedPair& pair : pairs) {
    const TwoViewGeometry& geometry = pair.geometry;
    const int inliers = static_cast<int>(geometry.inlier_matches.size());
    if (!geometry.has_relative_pose || inliers < min_num_inliers) continue;
    const bool planar = geometry.configuration == TwoViewConfiguration::kPlanar;
    if (planar && planar_weight <= 0) continue;
    edges.push_back({pair.pair.image1, pair.pair.image2, geometry.cam2_from_cam1.rotation.normalized(),
                     inliers * (planar ? planar_weight : 1.0)});
  }
  return edges;
}

std::vector<char> LargestConnectedComponent(int num_images,
                                            const std::vector<RelativeRotation>& edges) {
  std::vector<ImagePair> pairs;
  pairs.reserve(edges.size());
  for (const RelativeRotation& edge : edges) pairs.push_back({edge.image1, edge.image2});
  return LargestConnectedComponent(num_images, pairs);
}

std::vector<RelativeRotation> EdgesWithin(const std::vector<RelativeRotation>& edges,
                                          const std::vector<char>& in_component) {
  std::vector<RelativeRotation> kept;
  for (const RelativeRotation& edge : edges) {
    if (in_component[edge.image1] && in_component[edge.image2]) kept.push_back(edge);
  }
  return kept;
}

double RelativeRotationErrorDeg(const RelativeRotation& edge,
                                const std::vector<Eigen::Quaterniond>& rotations) {
  const Eigen::Quaterniond predicted = rotations[edge.image2] * rotations[edge.image1].conjugate();
  return predicted.angularDistance(edge.cam2_from_cam1) * 180.0 / M_PI;
}

std::vector<RelativeRotation> ConsistentEdges(const std::vector<RelativeRotation>& edges,
                                              const std::vector<Eigen::Quaterniond>& rotations,
                                              double max_error_deg) {
  std::vector<RelativeRotation> kept;
  for (const RelativeRotation& edge : edges) {
    if (RelativeRotationErrorDeg(edge, rotations) <= max_error_deg) kept.push_back(edge);
  }
  return kept;
}

}  // namespace proj
