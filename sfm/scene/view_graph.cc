#include "sfm/scene/view_graph.h"

#include <algorithm>
#include <numeric>

#include "core/check.h"

namespace proj {

namespace {

int FindRoot(std::vector<int>* parent, int i) {
  while ((*parent)[i] != i) {
    (*parent)[i] = (*parent)[(*parent)[i]];
    i = (*parent)[i];
  }
  return i;
}

}  // namespace

std::vector<ImagePair> PairsWithInliers(const std::vector<VerifiedPair>& pairs) {
  std::vector<ImagePair> edges;
  for (const VerifiedPair& pair : pairs) {
    if (!pair.geometry.inlier_matches.empty()) edges.push_back(pair.pair);
  }
  return edges;
}

std::vector<std::vector<int>> ConnectedComponents(int num_images, const std::vector<ImagePair>& edges) {
  std::vector<int> parent(num_images);
  std::iota(parent.begin(), parent.end(), 0);
  for (const ImagePair& edge : edges) {
    const int a = FindRoot(&parent, edge.image1), b = FindRoot(&parent, edge.image2);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  // Each root is its component's lowest image id, so components come in that order here.
  std::vector<std::vector<int>> components;
  std::vector<int> component_of_root(num_images, -1);
  for (int i = 0; i < num_images; ++i) {
    int& component = component_of_root[FindRoot(&parent, i)];
    if (component < 0) {
      component = static_cast<int>(components.size());
      components.emplace_back();
    }
    components[component].push_back(i);
  }
  std::stable_sort(components.begin(), components.end(),
                   [](const std::vector<int>& a, const std::vector<int>& b) { return a.size() > b.size(); });
  return components;
}

std::vector<char> LargestConnectedComponent(int num_images, const std::vector<ImagePair>& edges) {
  std::vector<char> in_component(num_images, 0);
  if (edges.empty()) return in_component;
  const std::vector<std::vector<int>> components = ConnectedComponents(num_images, edges);
  for (int image : components.front()) in_component[image] = 1;
  return in_component;
}

TrackSet BuildViewGraphTracks(const Scene& scene, const std::vector<VerifiedPair>& pairs) {
  std::vector<PairMatches> matches;
  matches.reserve(pairs.size());
  for (const VerifiedPair& pair : pairs) matches.push_back({pair.pair, pair.geometry.inlier_matches});
  return BuildTracks(scene, matches);
}

SubViewGraph ExtractSubViewGraph(const Scene& scene, const std::vector<VerifiedPair>& pairs,
                                 const std::vector<int>& image_ids) {
  SubViewGraph sub;
  sub.scene.cameras = scene.cameras;
  sub.scene.focal_priors_px = scene.focal_priors_px;
  std::vector<int> local(scene.images.size(), kInvalidId);
  for (size_t i = 0; i < image_ids.size(); ++i) {
    const int image = image_ids[i];
    PROJ_CHECK(image >= 0 && image < static_cast<int>(scene.images.size()) && local[image] == kInvalidId &&
                   (i == 0 || image > image_ids[i - 1]),
               "ExtractSubViewGraph: image ids must be increasing indices into the scene");
    local[image] = static_cast<int>(i);
    sub.scene.images.push_back(scene.images[image]);
    const auto prior = scene.position_priors.find(image);
    if (prior != scene.position_priors.end()) sub.scene.position_priors[static_cast<int>(i)] = prior->second;
  }
  for (const VerifiedPair& pair : pairs) {
    const int a = local[pair.pair.image1], b = local[pair.pair.image2];
    if (a == kInvalidId || b == kInvalidId) continue;
    VerifiedPair renumbered = pair;
    renumbered.pair = {a, b};  // increasing ids keep image1 < image2
    sub.pairs.push_back(std::move(renumbered));
  }
  return sub;
}

}  // namespace proj
