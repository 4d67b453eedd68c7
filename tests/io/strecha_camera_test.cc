#include "io/strecha_camera.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include <Eigen/Geometry>

#include "core/check.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string ReadError(const std::string& path) {
  try {
    ReadStrechaCamera(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(StrechaCamera, ReadsRealFile) {
  PROJ_REQUIRE_SHARED_DATASET(path, "strecha/fountain-P11/gt_dense_cameras/0000.jpg.camera");
  const StrechaCamera camera = ReadStrechaCamera(path);
  EXPECT_DOUBLE_EQ(camera.K(0, 0), 2759.48);
  EXPECT_DOUBLE_EQ(camera.K(1, 1), 2764.16);
  EXPECT_DOUBLE_EQ(camera.K(0, 2), 1520.69);
  EXPECT_DOUBLE_EQ(camera.K(1, 2), 1006.81);
  EXPECT_EQ(camera.distortion, Eigen::Vector3d::Zero());
  EXPECT_DOUBLE_EQ(camera.R(0, 0), 0.450927);
  EXPECT_DOUBLE_EQ(camera.R(2, 1), 0.994707);
  EXPECT_DOUBLE_EQ(camera.C.x(), -7.28137);
  EXPECT_DOUBLE_EQ(camera.C.z(), 0.204446);
  EXPECT_EQ(camera.width, 3072);
  EXPECT_EQ(camera.height, 2048);
  // A point 10 m along the optical axis (R's third column) projects to the principal point.
  Eigen::Vector2d uv;
  ASSERT_TRUE(camera.Project(camera.C + 10 * camera.R.col(2), &uv));
  EXPECT_NEAR(uv.x(), 1520.69, 1e-2);  // R has 6 digits, so is orthonormal to ~1e-6
  EXPECT_NEAR(uv.y(), 1006.81, 1e-2);
  EXPECT_FALSE(camera.Project(camera.C - camera.R.col(2), &uv));
}

TEST(StrechaCamera, WriteReadRoundTripIsExact) {
  StrechaCamera camera;
  camera.K << 1111.1111111, 0.5, 640.25, 0, 1112.3, 480.75, 0, 0, 1;
  camera.distortion = Eigen::Vector3d(1e-3, -2e-5, 0);
  camera.R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  camera.C = Eigen::Vector3d(-3.14159265358979, 2.0 / 3.0, 1e-7);
  camera.width = 1280;
  camera.height = 960;
  const std::string path = testing::MakeTempDir("strecha_round_trip") + "/0000.jpg.camera";
  WriteStrechaCamera(path, camera);
  const StrechaCamera read = ReadStrechaCamera(path);
  EXPECT_EQ(read.K, camera.K);
  EXPECT_EQ(read.distortion, camera.distortion);
  EXPECT_EQ(read.R, camera.R);
  EXPECT_EQ(read.C, camera.C);
  EXPECT_EQ(read.width, 1280);
  EXPECT_EQ(read.height, 960);
  // Nine lines, as in the benchmark's files.
  std::ifstream stream(path);
  int lines = 0;
  for (std::string line; std::getline(stream, line);) ++lines;
  EXPECT_EQ(lines, 9);
}

TEST(StrechaCamera, ErrorsNameFileAndLine) {
  const std::string dir = testing::MakeTempDir("strecha_errors");
  const std::string good =
      "100 0 50\n0 100 40\n0 0 1\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 2 3\n100 80\n";
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  EXPECT_EQ(ReadError(write("good.camera", good)), "");

  std::string bad_number = good;
  bad_number.replace(bad_number.find("1 2 3"), 5, "1 x 3");
  EXPECT_THAT(ReadError(write("bad_number.camera", bad_number)),
              AllOf(HasSubstr("bad_number.camera"), HasSubstr("line 8"), HasSubstr("'x'")));

  EXPECT_THAT(ReadError(write("short.camera", good.substr(0, good.find("1 2 3")))),
              AllOf(HasSubstr("short.camera"), HasSubstr("line 7"), HasSubstr("21 of 26")));
  EXPECT_THAT(ReadError(write("extra.camera", good + "5\n")),
              AllOf(HasSubstr("extra.camera"), HasSubstr("line 10")));

  std::string not_rotation = good;
  not_rotation.replace(not_rotation.find("1 0 0\n0 1 0"), 5, "2 0 0");
  EXPECT_THAT(ReadError(write("not_rotation.camera", not_rotation)),
              AllOf(HasSubstr("not_rotation.camera"), HasSubstr("lines 5-7"), HasSubstr("rotation")));

  std::string bad_size = good;
  bad_size.replace(bad_size.find("100 80"), 6, "100 -8");
  EXPECT_THAT(ReadError(write("bad_size.camera", bad_size)),
              AllOf(HasSubstr("bad_size.camera"), HasSubstr("line 9")));

  EXPECT_THAT(ReadError(write("empty.camera", "")), HasSubstr("empty.camera"));
  EXPECT_THAT(ReadError(dir + "/missing.camera"), HasSubstr("missing.camera"));
}

}  // namespace
}  // namespace proj
