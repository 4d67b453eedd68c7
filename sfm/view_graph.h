// The view graph: what the mappers start from. Per image its keypoints and camera, per
// verified pair its configuration, F/E/H, relative pose and inlier matches. Loaded from the
// scene database, whoever filled it (descriptor matching, KLT tracking, COLMAP).
#pragma once

#include <vector>

#include "matching/two_view_geometry.h"
#include "sfm/database/scene_database.h"
#include "sfm/scene.h"

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

// The images `image_ids` (all of the database's when empty), in increasing id, with their
// cameras (focal lengths from EXIF in scene.focal_priors_px), keypoints and the verified pairs
// between them. Throws InputError when an image
// named in `image_ids` is not in the database.
ViewGraph LoadViewGraph(const SceneDatabase& database, const std::vector<int>& image_ids);

// Per image 1 if it belongs to the largest connected component of the graph of `edges`
// (ties: the component with the lowest image id), else 0. Isolated images are components of
// one; no edge at all gives all zeros.
std::vector<char> LargestConnectedComponent(int num_images, const std::vector<ImagePair>& edges);

}  // namespace proj
