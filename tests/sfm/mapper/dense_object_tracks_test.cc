// A dense view set of a small object (issue 26): 60 views all around it, a few hundred
// keypoints each, 16% of them a second keypoint at the same position (SIFT's extra
// orientations, matched through one copy in some pairs and the other in others). Union-find
// chains those into components holding two keypoints of one image; dropping such components
// whole lost most features, refusing the conflicting unions keeps them and every view
// registers.
#include <random>

#include <gtest/gtest.h>

#include "datasets/synthetic/synthetic_object.h"
#include "matching/two_view_geometry.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/track_builder.h"

namespace proj {
namespace {

struct DenseObjectViewGraph {
  Scene scene;  // true focal length, keypoints with noise and duplicates, nothing registered
  std::vector<StrechaCamera> truth;
  std::vector<VerifiedPair> pairs;
  std::vector<PairMatches> matches;
};

DenseObjectViewGraph MakeDenseObjectViewGraph(int num_views, int num_points) {
  SyntheticObjectOptions object;
  object.num_views = num_views;
  object.focal_px = 768;
  object.distance_m = 0.5;
  DenseObjectViewGraph out;
  out.truth = MakeObjectCameras(object);
  out.scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, object.width, object.height, object.focal_px));
  out.scene.images.resize(num_views);
  for (int i = 0; i < num_views; ++i) {
    out.scene.images[i].name = std::to_string(i) + ".jpg";
    out.scene.images[i].camera_id = 0;
  }
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> unit(0, 1);
  // copies[image][point]: the point's keypoint indices in the image (none, one or two).
  std::vector<std::vector<std::vector<int>>> copies(num_views, std::vector<std::vector<int>>(num_points));
  for (int p = 0; p < num_points; ++p) {
    const Eigen::Vector3d surface_normal = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
    const Eigen::Vector3d position = 0.08 * surface_normal;
    for (int i = 0; i < num_views; ++i) {
      const StrechaCamera& camera = out.truth[i];
      if ((camera.C - position).normalized().dot(surface_normal) < 0.35) continue;  // within ~70 deg
      Eigen::Vector2d uv;
      if (!camera.Project(position, &uv)) continue;
      uv += 0.3 * Eigen::Vector2d(normal(rng), normal(rng));
      const int num_copies = unit(rng) < 0.16 ? 2 : 1;
      for (int c = 0; c < num_copies; ++c) {
        copies[i][p].push_back(static_cast<int>(out.scene.images[i].keypoints.size()));
        out.scene.images[i].keypoints.push_back(uv);
        out.scene.images[i].point3d_ids.push_back(kInvalidId);
      }
    }
  }
  TwoViewGeometryOptions verification;
  for (int i = 0; i < num_views; ++i) {
    for (int j = i + 1; j < num_views; ++j) {
      std::vector<FeatureMatch> matches;
      for (int p = 0; p < num_points; ++p) {
        if (copies[i][p].empty() || copies[j][p].empty()) continue;
        // Which copy a pair matches depends on its descriptors: either.
        matches.push_back({copies[i][p][rng() % copies[i][p].size()], copies[j][p][rng() % copies[j][p].size()]});
      }
      if (matches.size() < 15) continue;
      const Camera& camera = out.scene.cameras[0];
      TwoViewGeometry geometry = EstimateTwoViewGeometry(verification, camera, out.scene.images[i].keypoints, camera,
                                                         out.scene.images[j].keypoints, matches);
      if (geometry.configuration == TwoViewConfiguration::kDegenerate) continue;
      out.matches.push_back({{i, j}, geometry.inlier_matches});
      out.pairs.push_back({{i, j}, std::move(geometry)});
    }
  }
  return out;
}

TEST(DenseObjectTracks, KeepsTheFeaturesAndRegistersEveryView) {
  DenseObjectViewGraph graph = MakeDenseObjectViewGraph(60, 500);
  const TrackSet tracks = BuildTracks(graph.scene, graph.matches);
  EXPECT_GT(tracks.num_colocated_keypoints, 0);
  // Every true track is consistent once co-located keypoints are one: nothing lost.
  EXPECT_GT(tracks.KeptShare(), 0.98);

  IncrementalMapperOptions options;
  options.num_threads = 2;
  const MapperSummary summary = RunIncrementalMapper(options, tracks, graph.pairs, &graph.scene);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  EXPECT_EQ(graph.scene.NumRegisteredImages(), 60);
}

}  // namespace
}  // namespace proj
