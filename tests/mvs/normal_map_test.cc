#include "mvs/normal_map.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "core/check.h"
#include "tests/mvs/map_test_files.h"
#include "tests/support/test_data.h"

namespace proj::mvs {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(NormalMap, RoundTripIsBitExact) {
  const std::string path = testing::MakeTempDir("normal_map_round_trip") + "/0000.jpg.bin";
  NormalMap normals(6, 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 6; ++x) {
      if (x == y) continue;  // no normal: (0, 0, 0)
      normals.Set(x, y, Eigen::Vector3f(0.1f * x - 0.3f, 0.07f * y, -1.0f).normalized());
    }
  }
  WriteNormalMap(path, normals);
  const NormalMap read = ReadNormalMap(path);
  ASSERT_EQ(read.width(), 6);
  ASSERT_EQ(read.height(), 4);
  EXPECT_EQ(read.raster().data, normals.raster().data);
  EXPECT_EQ(read.At(2, 2), Eigen::Vector3f::Zero());
  EXPECT_EQ(read.At(1, 3), normals.At(1, 3));
}

TEST(NormalMap, FileLayoutIsChannelPlanarAsColmaps) {
  // COLMAP's Mat<float> stores whole planes: all x components, then all y, then all z.
  const std::string path = testing::MakeTempDir("normal_map_layout") + "/n.bin";
  NormalMap normals(2, 1);
  normals.Set(0, 0, Eigen::Vector3f(1, 2, 3));
  normals.Set(1, 0, Eigen::Vector3f(4, 5, 6));
  WriteNormalMap(path, normals);
  EXPECT_EQ(testing::ReadRawFile(path), "2&1&3&" + testing::FloatBytes({1, 4, 2, 5, 3, 6}));
}

TEST(NormalMap, RejectsADepthMapAndTruncatedFilesNamingThem) {
  const std::string dir = testing::MakeTempDir("normal_map_errors");
  testing::WriteRawFile(dir + "/depth.bin", "2&1&1&" + testing::FloatBytes({1, 2}));
  testing::WriteRawFile(dir + "/short.bin", "2&1&3&" + testing::FloatBytes({1, 2, 3, 4, 5}));
  const auto error = [](const std::string& path) -> std::string {
    try {
      ReadNormalMap(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_THAT(error(dir + "/depth.bin"), AllOf(HasSubstr("depth.bin"), HasSubstr("1 channels, expected 3")));
  EXPECT_THAT(error(dir + "/short.bin"), AllOf(HasSubstr("short.bin"), HasSubstr("truncated")));
}

}  // namespace
}  // namespace proj::mvs
