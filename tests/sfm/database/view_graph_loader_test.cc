#include "sfm/database/view_graph_loader.h"

#include <gtest/gtest.h>

#include "tests/sfm/database/database_test_util.h"

namespace proj {
namespace {

// Six images with 5,000 keypoints each; pairs of neighbours and a few more, one degenerate.
std::string WriteViewGraphDatabase() {
  const std::string path = testing::TempDatabasePath("view_graph_loader");
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  testing::AddImages(&database, 6);
  for (int id = 1; id <= 6; ++id) database.WriteKeypoints(id, testing::MakeKeypoints(5000, id));
  int seed = 0;
  for (auto [a, b] : std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {1, 3}, {2, 5}, {4, 6}}) {
    database.WriteTwoViewGeometry(a, b, testing::MakeGeometry(++seed));
  }
  TwoViewGeometry degenerate = testing::MakeGeometry(++seed);
  degenerate.configuration = TwoViewConfiguration::kDegenerate;
  database.WriteTwoViewGeometry(1, 6, degenerate);
  return path;
}

TEST(ViewGraphLoader, OutlineAndPartReadWhatTheWholeGraphHolds) {
  const SceneDatabase database(WriteViewGraphDatabase(), SceneDatabase::Mode::kReadOnly);
  const ViewGraph whole = LoadViewGraph(database, {});
  ASSERT_EQ(whole.scene.images.size(), 6u);
  ASSERT_EQ(whole.pairs.size(), 8u);  // the degenerate pair left out

  std::vector<PairInlierCount> counts;
  ViewGraph graph = LoadViewGraphOutline(database, &counts);
  ASSERT_EQ(graph.scene.images.size(), 6u);
  EXPECT_EQ(graph.database_image_ids, whole.database_image_ids);
  EXPECT_TRUE(graph.pairs.empty());
  ASSERT_EQ(counts.size(), whole.pairs.size());
  for (size_t k = 0; k < counts.size(); ++k) {
    EXPECT_EQ(counts[k].pair.image1, whole.pairs[k].pair.image1);
    EXPECT_EQ(counts[k].pair.image2, whole.pairs[k].pair.image2);
    EXPECT_EQ(counts[k].num_inliers, static_cast<int>(whole.pairs[k].geometry.inlier_matches.size()));
  }
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(graph.scene.images[i].name, whole.scene.images[i].name);
    EXPECT_TRUE(graph.scene.images[i].keypoints.empty());
  }

  // Images 1, 2, 4 (indices): their keypoints and the pairs between them, as the whole graph
  // has them and in its order; the others stay without keypoints.
  LoadViewGraphPart(database, counts, {1, 2, 4}, &graph);
  for (int i : {1, 2, 4}) EXPECT_EQ(graph.scene.images[i].keypoints, whole.scene.images[i].keypoints) << i;
  for (int i : {0, 3, 5}) EXPECT_TRUE(graph.scene.images[i].keypoints.empty()) << i;
  std::vector<const VerifiedPair*> expected;
  for (const VerifiedPair& pair : whole.pairs) {
    const auto in_part = [](int i) { return i == 1 || i == 2 || i == 4; };
    if (in_part(pair.pair.image1) && in_part(pair.pair.image2)) expected.push_back(&pair);
  }
  ASSERT_EQ(graph.pairs.size(), expected.size());
  ASSERT_EQ(expected.size(), 2u);  // (2, 3) and (2, 5) in ids
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(graph.pairs[k].pair.image1, expected[k]->pair.image1);
    EXPECT_EQ(graph.pairs[k].pair.image2, expected[k]->pair.image2);
    testing::ExpectMatchesEqual(graph.pairs[k].geometry.inlier_matches, expected[k]->geometry.inlier_matches);
    testing::ExpectGeometriesNear(graph.pairs[k].geometry, expected[k]->geometry);
  }
}

}  // namespace
}  // namespace proj
