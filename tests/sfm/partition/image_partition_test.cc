// The partition of a survey's images into overlapping parts: by GPS position (compact,
// balanced cores along the survey's long axis, overlap strips between neighbours) and by the
// view graph alone (connected, balanced cores).
#include "sfm/partition/image_partition.h"

#include <algorithm>
#include <queue>
#include <set>

#include <gtest/gtest.h>

#include "core/check.h"

namespace proj {
namespace {

// A rows x cols grid of images 15 m apart; each matched to its neighbours within two steps
// (weight falling with distance), as a nadir flight's view graph; pairs along a row (a flight
// line: forward overlap) weigh `along_line` times more than across.
struct GridSurvey {
  int rows, cols;
  std::vector<std::optional<Eigen::Vector2d>> positions;
  std::vector<WeightedImagePair> pairs;
  int Index(int row, int col) const { return row * cols + col; }
};

GridSurvey MakeGrid(int rows, int cols, int along_line = 1) {
  GridSurvey grid{rows, cols, {}, {}};
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) grid.positions.push_back(Eigen::Vector2d(15.0 * c, 15.0 * r));
  }
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      for (int dr = 0; dr <= 2; ++dr) {
        for (int dc = -2; dc <= 2; ++dc) {
          if (dr == 0 && dc <= 0) continue;
          const int r2 = r + dr, c2 = c + dc;
          if (r2 >= rows || c2 < 0 || c2 >= cols) continue;
          const int weight = 400 / (1 + dr * dr + dc * dc) * (dr == 0 ? along_line : 1);
          grid.pairs.push_back({grid.Index(r, c), grid.Index(r2, c2), weight});
        }
      }
    }
  }
  return grid;
}

std::vector<int> CoreOf(const ImagePartition& partition, int part) {
  std::vector<int> core;
  for (size_t i = 0; i < partition.core_part.size(); ++i) {
    if (partition.core_part[i] == part) core.push_back(static_cast<int>(i));
  }
  return core;
}

// Whether `images` are connected by `pairs` among themselves.
bool Connected(const std::vector<int>& images, const std::vector<WeightedImagePair>& pairs) {
  if (images.empty()) return true;
  const std::set<int> members(images.begin(), images.end());
  std::set<int> reached = {images.front()};
  std::queue<int> queue;
  queue.push(images.front());
  while (!queue.empty()) {
    const int image = queue.front();
    queue.pop();
    for (const WeightedImagePair& pair : pairs) {
      for (const auto& [from, to] : {std::pair{pair.image1, pair.image2}, std::pair{pair.image2, pair.image1}}) {
        if (from == image && members.count(to) && reached.insert(to).second) queue.push(to);
      }
    }
  }
  return reached.size() == members.size();
}

int Shared(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  return static_cast<int>(common.size());
}

TEST(ImagePartition, GpsPositionsCutCompactBalancedCoresWithOverlapStrips) {
  const GridSurvey grid = MakeGrid(6, 40);  // 240 images, the long axis east
  PartitionOptions options;
  options.num_parts = 4;
  const ImagePartition partition = PartitionImages(options, 240, grid.positions, grid.pairs);
  auto core_is_end = [&](const std::set<int>& columns) { return *columns.begin() == 0 || *columns.rbegin() == 39; };
  ASSERT_TRUE(partition.by_position);
  ASSERT_EQ(partition.parts.size(), 4u);
  for (int part = 0; part < 4; ++part) {
    const std::vector<int> core = CoreOf(partition, part);
    EXPECT_EQ(core.size(), 60u) << "part " << part;
    // Cut along the long axis: each core is 10 whole columns.
    std::set<int> columns;
    for (int image : core) columns.insert(image % grid.cols);
    EXPECT_EQ(columns.size(), 10u) << "part " << part;
    EXPECT_EQ(*columns.rbegin() - *columns.begin(), 9) << "part " << part;
    // Grown by 20% of the core (12 images), at least 8 from each neighbour (72 images at the
    // ends, 76 in the middle), all of them near it (the greedy growth takes the image most
    // matched to the grown part: a compact strip, not whole columns).
    const std::vector<int>& images = partition.parts[part];
    const bool end = core_is_end(columns);
    EXPECT_EQ(images.size(), end ? 72u : 76u) << "part " << part;
    EXPECT_TRUE(std::is_sorted(images.begin(), images.end()));
    for (int image : images) {
      const int column = image % grid.cols;
      EXPECT_TRUE(column >= *columns.begin() - 3 && column <= *columns.rbegin() + 3) << "image " << image;
    }
  }
  // Neighbouring parts share a strip to be merged by.
  std::vector<int> core_order;
  for (int part = 0; part < 4; ++part) core_order.push_back(CoreOf(partition, part).front() % grid.cols);
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (std::abs(core_order[a] - core_order[b]) == 10) {
        EXPECT_GE(Shared(partition.parts[a], partition.parts[b]), 6) << a << " " << b;
      }
    }
  }
  // The same input, the same partition (every task of a cluster run computes it alone).
  const ImagePartition again = PartitionImages(options, 240, grid.positions, grid.pairs);
  EXPECT_EQ(again.parts, partition.parts);
  EXPECT_EQ(again.core_part, partition.core_part);
}

// Flight lines along the rows match far more along a line than across (forward against side
// overlap); cut into quadrants, every two cores with a border still share a strip across it,
// not only along the lines (a 200-image flight's halves were once joined by 3 images).
TEST(ImagePartition, OverlapCoversEveryBorderNotOnlyTheStrongestMatches) {
  const GridSurvey grid = MakeGrid(20, 20, 4);
  PartitionOptions options;
  options.num_parts = 4;
  const ImagePartition partition = PartitionImages(options, 400, grid.positions, grid.pairs);
  ASSERT_TRUE(partition.by_position);
  ASSERT_EQ(partition.parts.size(), 4u);
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) {
      // Cores with a border: an image of one matched to an image of the other, one step apart.
      bool border = false;
      for (const WeightedImagePair& pair : grid.pairs) {
        const int pa = partition.core_part[pair.image1], pb = partition.core_part[pair.image2];
        const int dr = std::abs(pair.image1 / 20 - pair.image2 / 20), dc = std::abs(pair.image1 % 20 - pair.image2 % 20);
        border |= ((pa == a && pb == b) || (pa == b && pb == a)) && dr + dc == 1;
      }
      if (border) {
        EXPECT_GE(Shared(partition.parts[a], partition.parts[b]), 14) << "parts " << a << " and " << b;
      }
    }
  }
}

TEST(ImagePartition, ImagesWithoutGpsJoinThePartTheyMatchMost) {
  GridSurvey grid = MakeGrid(4, 30);
  grid.positions[grid.Index(2, 3)].reset();   // deep in the west
  grid.positions[grid.Index(1, 27)].reset();  // deep in the east
  PartitionOptions options;
  options.num_parts = 2;
  const ImagePartition partition = PartitionImages(options, 120, grid.positions, grid.pairs);
  ASSERT_TRUE(partition.by_position);
  EXPECT_EQ(partition.core_part[grid.Index(2, 3)], partition.core_part[grid.Index(2, 2)]);
  EXPECT_EQ(partition.core_part[grid.Index(1, 27)], partition.core_part[grid.Index(1, 28)]);
  EXPECT_NE(partition.core_part[grid.Index(2, 3)], partition.core_part[grid.Index(1, 27)]);
}

TEST(ImagePartition, ViewGraphAloneCutsConnectedBalancedCores) {
  const GridSurvey grid = MakeGrid(5, 36);
  PartitionOptions options;
  options.num_parts = 3;
  const ImagePartition partition = PartitionImages(options, 180, {}, grid.pairs);
  ASSERT_FALSE(partition.by_position);
  ASSERT_EQ(partition.parts.size(), 3u);
  for (int part = 0; part < 3; ++part) {
    const std::vector<int> core = CoreOf(partition, part);
    EXPECT_EQ(core.size(), 60u) << "part " << part;
    EXPECT_TRUE(Connected(core, grid.pairs)) << "part " << part;
    EXPECT_TRUE(Connected(partition.parts[part], grid.pairs)) << "part " << part;
    // The level structure cuts across the long axis: a core spans few columns.
    std::set<int> columns;
    for (int image : core) columns.insert(image % grid.cols);
    EXPECT_LE(*columns.rbegin() - *columns.begin(), 16) << "part " << part;
  }
}

TEST(ImagePartition, EveryImageInAPartAndBadInputRefused) {
  const GridSurvey grid = MakeGrid(3, 4);
  PartitionOptions options;
  options.num_parts = 50;  // more parts than images: one per image
  const ImagePartition partition = PartitionImages(options, 12, grid.positions, grid.pairs);
  EXPECT_EQ(partition.parts.size(), 12u);
  std::vector<int> seen(12, 0);
  for (const auto& images : partition.parts) {
    for (int image : images) ++seen[image];
  }
  for (int count : seen) EXPECT_GE(count, 1);
  options.num_parts = 1;
  const ImagePartition whole = PartitionImages(options, 12, grid.positions, grid.pairs);
  ASSERT_EQ(whole.parts.size(), 1u);
  EXPECT_EQ(whole.parts[0].size(), 12u);
  EXPECT_THROW(PartitionImages(options, 12, grid.positions, {{0, 12, 5}}), InputError);
  options.num_parts = 0;
  EXPECT_THROW(PartitionImages(options, 12, grid.positions, grid.pairs), InputError);
}

}  // namespace
}  // namespace proj
