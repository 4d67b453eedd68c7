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

std::vector<char> LargestConnectedComponent(int num_images, const std::vector<ImagePair>& edges) {
  std::vector<int> parent(num_images);
  std::iota(parent.begin(), parent.end(), 0);
  for (const ImagePair& edge : edges) {
    const int a = FindRoot(&parent, edge.image1), b = FindRoot(&parent, edge.image2);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<int> size(num_images, 0);
  for (int i = 0; i < num_images; ++i) ++size[FindRoot(&parent, i)];
  std::vector<char> in_component(num_images, 0);
  if (edges.empty()) return in_component;
  // max_element returns the first maximum: the component whose root (lowest id) is lowest.
  const int best = static_cast<int>(std::max_element(size.begin(), size.end()) - size.begin());
  for (int i = 0; i < num_images; ++i) in_component[i] = FindRoot(&parent, i) == best;
  return in_component;
}

}  // namespace proj
