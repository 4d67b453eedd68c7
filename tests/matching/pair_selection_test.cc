#include "matching/pair_selection.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "core/check.h"

namespace proj {
namespace {

TEST(PairSelection, ExhaustiveListsAllPairsOnce) {
  const auto pairs = SelectImagePairs({PairSelection::kExhaustive, 10}, 11);
  EXPECT_EQ(pairs.size(), 55u);
  for (const auto& p : pairs) EXPECT_LT(p.image1, p.image2);
}

TEST(PairSelection, SequentialPairsEachImageWithTheNextK) {
  const auto pairs = SelectImagePairs({PairSelection::kSequential, 2}, 5);
  // (0,1) (0,2) (1,2) (1,3) (2,3) (2,4) (3,4)
  ASSERT_EQ(pairs.size(), 7u);
  EXPECT_EQ(pairs[1].image1, 0);
  EXPECT_EQ(pairs[1].image2, 2);
  EXPECT_EQ(pairs.back().image1, 3);
  EXPECT_EQ(pairs.back().image2, 4);
}

TEST(PairSelection, RejectsZeroOverlap) {
  EXPECT_THROW(SelectImagePairs({PairSelection::kSequential, 0}, 5), InputError);
}

using Positions = std::vector<std::optional<Eigen::Vector3d>>;

// A lawnmower grid: `rows` strips of `columns` images `spacing_m` apart, in flight order.
Positions Grid(int rows, int columns, double spacing_m) {
  Positions positions;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      const int column = r % 2 == 0 ? c : columns - 1 - c;
      positions.push_back(Eigen::Vector3d(column * spacing_m, r * spacing_m, 100.0));
    }
  }
  return positions;
}

std::set<std::pair<int, int>> AsSet(const std::vector<ImagePair>& pairs) {
  std::set<std::pair<int, int>> set;
  for (const ImagePair& p : pairs) {
    EXPECT_LT(p.image1, p.image2);
    set.insert({p.image1, p.image2});
  }
  EXPECT_EQ(set.size(), pairs.size()) << "pairs listed twice";
  return set;
}

TEST(PairSelection, SpatialPairsNeighboursAcrossStrips) {
  PairSelectionOptions options;
  options.mode = PairSelection::kSpatial;
  options.spatial_neighbors = 4;
  options.spatial_sequential_overlap = 1;
  const Positions positions = Grid(3, 10, 20.0);
  const PairSelectionReport report = SelectImagePairs(options, positions);
  EXPECT_EQ(report.mode, PairSelection::kSpatial);
  const auto pairs = AsSet(report.pairs);
  // Image 0 (column 0, strip 0) and image 19 (column 0, strip 1) are 20 m apart but 19 apart
  // in file order: only the spatial search links them.
  EXPECT_TRUE(pairs.count({0, 19}));
  EXPECT_TRUE(pairs.count({0, 1}));
  // Image 9 is 180 m along the strip: not among image 0's 4 nearest.
  EXPECT_FALSE(pairs.count({0, 9}));
  // Far fewer than the 435 exhaustive pairs, at most (4 + 1) per image.
  EXPECT_LE(pairs.size(), 30u * 5u);
  EXPECT_GE(pairs.size(), 30u * 2u);
}

TEST(PairSelection, SpatialMaxDistanceLimitsNeighbours) {
  PairSelectionOptions options;
  options.mode = PairSelection::kSpatial;
  options.spatial_neighbors = 50;
  options.spatial_max_distance_m = 25;  // only the 4-neighbourhood of the 20 m grid
  options.spatial_sequential_overlap = 0;
  const auto pairs = AsSet(SelectImagePairs(options, Grid(4, 5, 20.0)).pairs);
  // 4 x 5 grid: 4 * 4 horizontal + 3 * 5 vertical edges.
  EXPECT_EQ(pairs.size(), 31u);
}

TEST(PairSelection, SpatialLinksImagesWithoutGpsSequentially) {
  PairSelectionOptions options;
  options.mode = PairSelection::kSpatial;
  options.spatial_neighbors = 3;
  options.spatial_sequential_overlap = 2;
  Positions positions = Grid(2, 10, 15.0);
  positions[7].reset();
  const auto pairs = AsSet(SelectImagePairs(options, positions).pairs);
  for (const auto& [a, b] : pairs) {
    if (a == 7 || b == 7) {
      EXPECT_LE(b - a, 2) << a << "-" << b;
    }
  }
  EXPECT_TRUE(pairs.count({5, 7}));
  EXPECT_TRUE(pairs.count({7, 9}));
}

TEST(PairSelection, AutoChoosesSpatialOnlyWithMostImagesTagged) {
  PairSelectionOptions options;
  options.mode = PairSelection::kAuto;
  Positions positions = Grid(4, 10, 20.0);
  EXPECT_EQ(SelectImagePairs(options, positions).mode, PairSelection::kSpatial);
  for (int i = 0; i < 21; ++i) positions[i].reset();  // 19 of 40 left
  const PairSelectionReport report = SelectImagePairs(options, positions);
  EXPECT_EQ(report.mode, PairSelection::kExhaustive);
  EXPECT_EQ(report.pairs.size(), 40u * 39u / 2u);
  EXPECT_NE(report.note.find("19 of 40"), std::string::npos) << report.note;
  // No positions at all: today's behaviour.
  EXPECT_EQ(SelectImagePairs(options, 12).size(), 66u);
}

TEST(PairSelection, HoveringPositionsFallBackToExhaustive) {
  PairSelectionOptions options;
  options.mode = PairSelection::kSpatial;
  Positions positions;
  std::mt19937 rng(3);
  std::normal_distribution<double> jitter(0, 0.1);
  for (int i = 0; i < 30; ++i) positions.push_back(Eigen::Vector3d(jitter(rng), jitter(rng), 50));
  const PairSelectionReport report = SelectImagePairs(options, positions);
  EXPECT_EQ(report.mode, PairSelection::kExhaustive);
  EXPECT_EQ(report.pairs.size(), 435u);
  EXPECT_NE(report.note.find("degenerate"), std::string::npos) << report.note;
}

TEST(PairSelection, SpatialScalesToTenThousandImages) {
  PairSelectionOptions options;
  options.mode = PairSelection::kSpatial;
  const Positions positions = Grid(100, 100, 10.0);
  const PairSelectionReport report = SelectImagePairs(options, positions);
  // At most (20 + 5) pairs per image, at least 20 / 2.
  EXPECT_LE(report.pairs.size(), 10000u * 25u);
  EXPECT_GE(report.pairs.size(), 10000u * 10u);
}

TEST(PairSelection, RejectsBadSpatialOptions) {
  PairSelectionOptions options;
  options.mode = PairSelection::kSpatial;
  options.spatial_neighbors = 0;
  EXPECT_THROW(SelectImagePairs(options, 5), InputError);
  options.spatial_neighbors = 5;
  options.spatial_max_distance_m = -1;
  EXPECT_THROW(SelectImagePairs(options, 5), InputError);
}

}  // namespace
}  // namespace proj
