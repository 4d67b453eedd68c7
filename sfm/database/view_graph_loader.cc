#include "sfm/database/view_graph_loader.h"

#include <algorithm>
#include <map>

#include "core/check.h"

namespace proj {

ViewGraph LoadViewGraph(const SceneDatabase& database, const std::vector<int>& image_ids) {
  std::vector<DatabaseImage> images = database.ReadImages();
  if (!image_ids.empty()) {
    std::vector<int> wanted = image_ids;
    std::sort(wanted.begin(), wanted.end());
    std::vector<DatabaseImage> kept;
    for (DatabaseImage& image : images) {
      if (std::binary_search(wanted.begin(), wanted.end(), image.image_id)) kept.push_back(std::move(image));
    }
    PROJ_REQUIRE(kept.size() == wanted.size(), "scene database '" << database.path() << "' lacks "
                                                   << wanted.size() - kept.size() << " of the images asked for");
    images = std::move(kept);
  }
  ViewGraph graph;
  std::map<int, int> camera_index;  // database camera id -> scene camera index
  std::map<int, DatabaseCamera> cameras;
  for (DatabaseCamera& camera : database.ReadCameras()) cameras[camera.camera_id] = std::move(camera);
  std::map<int, int> index_of_image;
  for (const DatabaseImage& image : images) {
    auto camera = cameras.find(image.camera_id);
    PROJ_REQUIRE(camera != cameras.end(), "scene database '" << database.path() << "': image '"
                                              << image.name << "' refers to camera " << image.camera_id
                                              << ", which is not in the cameras table");
    auto [it, inserted] = camera_index.emplace(image.camera_id, static_cast<int>(graph.scene.cameras.size()));
    if (inserted) {
      if (camera->second.prior_focal_length) {
        graph.scene.focal_priors_px[it->second] = camera->second.camera.MeanFocal();
      }
      graph.scene.cameras.push_back(camera->second.camera);
    }
    SceneImage scene_image;
    scene_image.name = image.name;
    scene_image.camera_id = it->second;
    for (const Keypoint& keypoint : database.ReadKeypoints(image.image_id)) {
      scene_image.keypoints.emplace_back(keypoint.x, keypoint.y);
    }
    scene_image.point3d_ids.assign(scene_image.keypoints.size(), kInvalidId);
    index_of_image[image.image_id] = static_cast<int>(graph.scene.images.size());
    graph.scene.images.push_back(std::move(scene_image));
    graph.database_image_ids.push_back(image.image_id);
  }
  for (auto& [pair_id, geometry] : database.ReadTwoViewGeometries()) {
    if (geometry.configuration == TwoViewConfiguration::kDegenerate) continue;
    const auto [id1, id2] = ImageIdsFromPairId(pair_id);
    auto index1 = index_of_image.find(id1), index2 = index_of_image.find(id2);
    if (index1 == index_of_image.end() || index2 == index_of_image.end()) continue;
    // Images are in increasing id, so index1 < index2 as the geometry (smaller id first).
    const int n1 = static_cast<int>(graph.scene.images[index1->second].keypoints.size());
    const int n2 = static_cast<int>(graph.scene.images[index2->second].keypoints.size());
    for (const FeatureMatch& match : geometry.inlier_matches) {
      PROJ_REQUIRE(match.index1 >= 0 && match.index1 < n1 && match.index2 >= 0 && match.index2 < n2,
                   "scene database '" << database.path() << "': a match of images " << id1 << " and "
                                      << id2 << " refers to a keypoint that does not exist");
    }
    graph.pairs.push_back({{index1->second, index2->second}, std::move(geometry)});
  }
  return graph;
}

}  // namespace proj
