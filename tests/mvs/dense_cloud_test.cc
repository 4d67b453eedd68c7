// points.ply of a dense cloud: positions, normals and colours come back as written, in the
// header MeshLab and CloudCompare read.
#include "mvs/dense_cloud.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/mvs/map_test_files.h"
#include "tests/support/test_data.h"

namespace proj::mvs {
namespace {

using ::testing::HasSubstr;

TEST(DenseCloud, PlyRoundTripWithNormalsAndColours) {
  DenseCloud cloud;
  for (int i = 0; i < 500; ++i) {
    cloud.positions.emplace_back(0.25f * i, -2.0f * i, 1e-3f * i * i);
    cloud.normals.push_back(Eigen::Vector3f(1, 0.01f * i, -0.5f).normalized());
    cloud.colors.push_back({static_cast<uint8_t>(i % 256), 7, static_cast<uint8_t>(255 - i % 256)});
    cloud.num_views.push_back(static_cast<uint16_t>(3 + i % 5));
  }
  const std::string path = testing::MakeTempDir("dense_cloud_ply") + "/points.ply";
  WriteDenseCloudPly(path, cloud);
  EXPECT_THAT(testing::ReadRawFile(path).substr(0, 400),
              HasSubstr("element vertex 500\nproperty float x\nproperty float y\nproperty float z\n"
                        "property float nx\nproperty float ny\nproperty float nz\n"
                        "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n"));
  const DenseCloud read = ReadDenseCloudPly(path);
  EXPECT_EQ(read.positions, cloud.positions);
  EXPECT_EQ(read.normals, cloud.normals);
  EXPECT_EQ(read.colors, cloud.colors);
  EXPECT_TRUE(read.num_views.empty());
}

}  // namespace
}  // namespace proj::mvs
