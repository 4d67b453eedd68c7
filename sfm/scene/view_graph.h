// The view graph: what the mappers start from. Per image its keypoints and camera, per
// verified pair its configuration, F/E/H, relative pose and inlier matches. Loaded from the
// scene database by sfm/database/view_graph_loader.h.
#pragma once

#include <vector>

#include "matching/two_view_geometry.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"

namespace proj {

struct VerifiedPair {
  ImagePair pair;  // indices into the scene's images, image1 < image2
  TwoViewGeometry geometry;  // from image1 to image2; never degenerate
};

struct ViewGraph {
  Scene scene;  // cameras (priors) and images with keypoints; nothing registered
  std::vector<VerifiedPair> pairs;
  std::vector<int> database_image_ids;  // of scene.images[i]
};

// The pairs that hold inlier matches: the edges of the view graph.
std::vector<ImagePair> PairsWithInliers(const std::vector<VerifiedPair>& pairs);

// The connected components of the graph of `edges` over `num_images` images, each as its
// increasing image ids, largest first (ties: the one with the lowest image id first).
// Isolated images are components of one.
std::vector<std::vector<int>> ConnectedComponents(int num_images, const std::vector<ImagePair>& edges);

// Per image 1 if it belongs to the largest connected component of the graph of `edges`
// (ties: the component with the lowest image id), else 0. Isolated images are components of
// one; no edge at all gives all zeros.
std::vector<char> LargestConnectedComponent(int num_images, const std::vector<ImagePair>& edges);

// The tracks of the view graph `pairs` over the images of `scene` (BuildTracks on their
// inlier matches).
TrackSet BuildViewGraphTracks(const Scene& scene, const std::vector<VerifiedPair>& pairs);

// The view graph of the images `image_ids` (increasing indices into scene.images): those
// images (scene.images[i] of the result is image image_ids[i]), the pairs between them
// renumbered, their GPS priors; cameras and focal priors as they are (same ids).
struct SubViewGraph {
  Scene scene;
  std::vector<VerifiedPair> pairs;
};
SubViewGraph ExtractSubViewGraph(const Scene& scene, const std::vector<VerifiedPair>& pairs,
                                 const std::vector<int>& image_ids);

}  // namespace proj
