#include "sfm/database/view_graph_loader.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "core/check.h"

namespace proj {

namespace {

// The images `image_ids` (all when empty) in increasing id with their cameras, no keypoints.
ViewGraph LoadImages(const SceneDatabase& database, const std::vector<int>& image_ids) {
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
    graph.scene.images.push_back(std::move(scene_image));
    graph.database_image_ids.push_back(image.image_id);
  }
  return graph;
}

void LoadKeypoints(const SceneDatabase& database, int index, ViewGraph* graph) {
  SceneImage& image = graph->scene.images[index];
  image.keypoints.clear();
  for (const Keypoint& keypoint : database.ReadKeypoints(graph->database_image_ids[index])) {
    image.keypoints.emplace_back(keypoint.x, keypoint.y);
  }
  image.point3d_ids.assign(image.keypoints.size(), kInvalidId);
}

// Adds the pair of images index1 < index2 (geometry from the first to the second) after
// checking its matches against their keypoints.
void AddPair(const SceneDatabase& database, int index1, int index2, TwoViewGeometry geometry, ViewGraph* graph) {
  const int n1 = static_cast<int>(graph->scene.images[index1].keypoints.size());
  const int n2 = static_cast<int>(graph->scene.images[index2].keypoints.size());
  for (const FeatureMatch& match : geometry.inlier_matches) {
    PROJ_REQUIRE(match.index1 >= 0 && match.index1 < n1 && match.index2 >= 0 && match.index2 < n2,
                 "scene database '" << database.path() << "': a match of images "
                                    << graph->database_image_ids[index1] << " and "
                                    << graph->database_image_ids[index2]
                                    << " refers to a keypoint that does not exist");
  }
  graph->pairs.push_back({{index1, index2}, std::move(geometry)});
}

std::map<int, int> IndexOfImage(const ViewGraph& graph) {
  std::map<int, int> index_of_image;
  for (size_t i = 0; i < graph.database_image_ids.size(); ++i) {
    index_of_image[graph.database_image_ids[i]] = static_cast<int>(i);
  }
  return index_of_image;
}

// The scene indices of a pair's images, when both are in `index_of_image`. Images are in
// increasing id, so image1 < image2 as the geometry (smaller id first).
std::optional<ImagePair> PairIndices(const std::map<int, int>& index_of_image, int64_t pair_id) {
  const auto [id1, id2] = ImageIdsFromPairId(pair_id);
  auto index1 = index_of_image.find(id1), index2 = index_of_image.find(id2);
  if (index1 == index_of_image.end() || index2 == index_of_image.end()) return std::nullopt;
  return ImagePair{index1->second, index2->second};
}

}  // namespace

ViewGraph LoadViewGraph(const SceneDatabase& database, const std::vector<int>& image_ids) {
  ViewGraph graph = LoadImages(database, image_ids);
  for (size_t i = 0; i < graph.scene.images.size(); ++i) LoadKeypoints(database, static_cast<int>(i), &graph);
  const std::map<int, int> index_of_image = IndexOfImage(graph);
  for (auto& [pair_id, geometry] : database.ReadTwoViewGeometries()) {
    if (geometry.configuration == TwoViewConfiguration::kDegenerate) continue;
    const std::optional<ImagePair> pair = PairIndices(index_of_image, pair_id);
    if (pair) AddPair(database, pair->image1, pair->image2, std::move(geometry), &graph);
  }
  return graph;
}

ViewGraph LoadViewGraphOutline(const SceneDatabase& database, std::vector<PairInlierCount>* pair_counts) {
  ViewGraph graph = LoadImages(database, {});
  const std::map<int, int> index_of_image = IndexOfImage(graph);
  pair_counts->clear();
  for (const SceneDatabase::VerifiedPairSize& size : database.ReadVerifiedPairSizes()) {
    if (size.configuration == TwoViewConfiguration::kDegenerate) continue;
    const std::optional<ImagePair> pair = PairIndices(index_of_image, size.pair_id);
    if (pair) pair_counts->push_back({*pair, size.num_inliers});
  }
  return graph;
}

void LoadViewGraphPart(const SceneDatabase& database, const std::vector<PairInlierCount>& pair_counts,
                       const std::vector<int>& image_indices, ViewGraph* graph) {
  std::vector<char> in_part(graph->scene.images.size(), 0);
  for (int index : image_indices) {
    PROJ_CHECK(index >= 0 && index < static_cast<int>(in_part.size()), "LoadViewGraphPart: bad image index");
    in_part[index] = 1;
    LoadKeypoints(database, index, graph);
  }
  for (const PairInlierCount& count : pair_counts) {
    const int index1 = count.pair.image1, index2 = count.pair.image2;
    if (!in_part[index1] || !in_part[index2]) continue;
    std::optional<TwoViewGeometry> geometry =
        database.ReadTwoViewGeometry(graph->database_image_ids[index1], graph->database_image_ids[index2]);
    PROJ_REQUIRE(geometry.has_value(), "scene database '" << database.path() << "': the pair of images "
                                           << graph->database_image_ids[index1] << " and "
                                           << graph->database_image_ids[index2] << " went missing while read");
    AddPair(database, index1, index2, std::move(*geometry), graph);
  }
}

}  // namespace proj
