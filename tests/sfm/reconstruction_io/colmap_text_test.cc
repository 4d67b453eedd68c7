#include "sfm/reconstruction_io/colmap_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/check.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/sfm/reconstruction_io/colmap_test_support.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

namespace fs = std::filesystem;
using testing::ExpectScenesEqual;
using testing::MakeSmallScene;
using testing::ReadText;
using testing::WriteText;

TEST(ColmapText, WriteThenReadIsIdentity) {
  Scene scene = testing::MakeSyntheticScene(testing::SyntheticSceneOptions{});
  int k = 0;
  for (auto& [id, point] : scene.points) {
    point.color = Eigen::Matrix<uint8_t, 3, 1>(k % 256, (3 * k) % 256, 255 - k % 256);
    point.mean_error_px = 0.1 * k + 1.0 / 3.0;  // not representable in short decimal
    ++k;
  }
  scene.DeletePoint(5);                // a gap in the point ids
  SceneImage empty = scene.images[4];  // an image without keypoints: empty POINTS2D line
  empty.name = "no keypoints.jpg";
  empty.keypoints.clear();
  empty.point3d_ids.clear();
  scene.images.push_back(empty);
  const std::string dir = testing::MakeTempDir("colmap_text_round_trip");
  WriteColmapText(scene, dir);
  for (const char* name : {"cameras.txt", "images.txt", "points3D.txt"}) {
    EXPECT_TRUE(fs::exists(fs::path(dir) / name)) << name;
  }
  // No temporary files left behind by the atomic writes.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 3);
  const Scene read = ReadColmapText(dir);
  ExpectScenesEqual(scene, read);
  EXPECT_EQ(read.next_point_id, scene.points.rbegin()->first + 1);
}

constexpr const char* kExpectedCameras =
    "# Camera list with one line of data per camera:\n"
    "#   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n"
    "# Number of cameras: 2\n"
    "1 PINHOLE 640 480 500 510 320 240\n"
    "2 SIMPLE_RADIAL 800 600 700 400 300 -0.125\n";
constexpr const char* kExpectedImages =
    "# Image list with two lines of data per image:\n"
    "#   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME\n"
    "#   POINTS2D[] as (X, Y, POINT3D_ID)\n"
    "# Number of images: 2, mean observations per image: 2\n"
    "1 1 0 0 0 0.5 -1 2 1 a.jpg\n"
    "10.5 20.25 1 30 40 -1 50.5 60.5 3\n"
    "3 0.5 0.5 0.5 0.5 1 2 3 2 c.jpg\n"
    "1.5 2.5 1 3.5 4.5 3 7 8 -1\n";
constexpr const char* kExpectedPoints =
    "# 3D point list with one line of data per point:\n"
    "#   POINT3D_ID, X, Y, Z, R, G, B, ERROR, TRACK[] as (IMAGE_ID, POINT2D_IDX)\n"
    "# Number of points: 2, mean track length: 2\n"
    "1 1 2 3 255 128 0 0.25 1 0 3 0\n"
    "3 -1.5 0 4.75 1 2 3 0.5 1 2 3 1\n";

TEST(ColmapText, SmallSceneMatchesExpectedText) {
  const std::string dir = testing::MakeTempDir("colmap_text_small");
  WriteColmapText(MakeSmallScene(), dir);
  EXPECT_EQ(ReadText(dir + "/cameras.txt"), kExpectedCameras);
  EXPECT_EQ(ReadText(dir + "/images.txt"), kExpectedImages);
  EXPECT_EQ(ReadText(dir + "/points3D.txt"), kExpectedPoints);
}

TEST(ColmapText, ReadsExpectedTextWithGaps) {
  const std::string dir = testing::MakeTempDir("colmap_text_read_small");
  WriteText(dir + "/cameras.txt", kExpectedCameras);
  WriteText(dir + "/images.txt", kExpectedImages);
  WriteText(dir + "/points3D.txt", kExpectedPoints);
  const Scene scene = ReadColmapText(dir);
  ASSERT_EQ(scene.images.size(), 3u);
  EXPECT_FALSE(scene.images[1].registered);  // the gap at IMAGE_ID 2
  EXPECT_TRUE(scene.images[1].name.empty());
  EXPECT_EQ(scene.images[2].name, "c.jpg");
  EXPECT_EQ(scene.images[2].camera_id, 1);
  EXPECT_EQ(scene.images[2].cam_from_world.rotation.w(), 0.5);
  EXPECT_EQ(scene.images[0].point3d_ids, (std::vector<int>{0, kInvalidId, 2}));
  ASSERT_EQ(scene.points.size(), 2u);
  EXPECT_EQ(scene.points.count(1), 0u);
  EXPECT_EQ(scene.points.at(2).track.size(), 2u);
  EXPECT_EQ(scene.points.at(2).position, Eigen::Vector3d(-1.5, 0, 4.75));
  EXPECT_EQ(scene.next_point_id, 3);
  EXPECT_EQ(scene.cameras[1].params, (std::vector<double>{700, 400, 300, -0.125}));
}

// Writes the small model with one file replaced by `text` and expects InputError mentioning
// every string in `fragments`.
void ExpectReadError(const std::string& name, const std::string& file, const std::string& text,
                     const std::vector<std::string>& fragments) {
  const std::string dir = testing::MakeTempDir(name);
  WriteText(dir + "/cameras.txt", kExpectedCameras);
  WriteText(dir + "/images.txt", kExpectedImages);
  WriteText(dir + "/points3D.txt", kExpectedPoints);
  WriteText(dir + "/" + file, text);
  testing::ExpectInputError([&] { ReadColmapText(dir); }, fragments);
}

TEST(ColmapText, ReadErrorsNameFileAndLine) {
  ExpectReadError(
      "colmap_bad_model", "cameras.txt",
      "# comment\n1 PINHOLE 640 480 500 510 320 240\n\n2 OPENCV 800 600 1 2 3 4 5 6 7 8\n",
      {"cameras.txt:4", "OPENCV", "unsupported"});
  ExpectReadError("colmap_param_count", "cameras.txt",
                  "1 PINHOLE 640 480 500 510 320 240\n2 SIMPLE_RADIAL 800 600 700 400 300\n",
                  {"cameras.txt:2", "4 parameters"});
  ExpectReadError("colmap_bad_number", "points3D.txt", "1 1 2 x 255 128 0 0.25 1 0 3 0\n",
                  {"points3D.txt:1", "'x'"});
  ExpectReadError("colmap_track_mismatch", "points3D.txt",
                  "1 1 2 3 255 128 0 0.25 1 0 3 1\n3 -1.5 0 4.75 1 2 3 0.5 1 2 3 1\n",
                  {"points3D.txt:1", "disagrees"});
  ExpectReadError("colmap_unknown_camera", "images.txt",
                  "1 1 0 0 0 0.5 -1 2 7 a.jpg\n10.5 20.25 -1\n", {"images.txt:1", "CAMERA_ID 7"});
  ExpectReadError("colmap_odd_points2d", "images.txt", "1 1 0 0 0 0.5 -1 2 1 a.jpg\n10.5 20.25\n",
                  {"images.txt:2", "triples"});
  ExpectReadError("colmap_missing_point", "points3D.txt", "1 1 2 3 255 128 0 0.25 1 0 3 0\n",
                  {"images.txt", "POINT3D_ID 3"});
  const std::string dir = testing::MakeTempDir("colmap_missing_file");
  EXPECT_THROW(ReadColmapText(dir), InputError);
}

// Found by fuzzing (tests/fuzz/colmap_text_fuzzer.cc): gaps in ids become placeholders, so a
// one-line cameras.txt naming CAMERA_ID 2^30 asked for tens of gigabytes. Ids above 2^20 are
// refused before anything is allocated; the largest accepted one still reads.
TEST(ColmapText, HugeCameraAndImageIdsAreRefused) {
  ExpectReadError("colmap_huge_camera_id", "cameras.txt",
                  "1073741824 PINHOLE 640 480 500 510 320 240\n",
                  {"cameras.txt:1", "CAMERA_ID 1073741824 too large"});
  ExpectReadError("colmap_huge_image_id", "images.txt", "1048577 1 0 0 0 0.5 -1 2 1 a.jpg\n\n",
                  {"images.txt:1", "IMAGE_ID 1048577 too large"});
  const std::string dir = testing::MakeTempDir("colmap_largest_id");
  WriteText(dir + "/cameras.txt", "1048576 PINHOLE 640 480 500 510 320 240\n");
  WriteText(dir + "/images.txt", "");
  WriteText(dir + "/points3D.txt", "");
  EXPECT_EQ(ReadColmapText(dir).cameras.size(), 1048576u);
}

// The second images.txt was found by fuzzing (tests/fuzz/colmap_text_fuzzer.cc): fields are
// split at any whitespace, but the name was found by skipping only spaces and tabs, so a
// vertical tab or form feed between two fields threw std::out_of_range (a crash).
TEST(ColmapText, AcceptsCrLfAnyWhitespaceAndNamesWithSpaces) {
  for (const char* images : {"# c\r\n1 1 0 0 0 0 0 0 1 my image.jpg\r\n\r\n",
                             "1 1\v0 0 0\f0 0 0 1 my image.jpg\v\n\n"}) {
    const std::string dir = testing::MakeTempDir("colmap_whitespace");
    WriteText(dir + "/cameras.txt", "1 PINHOLE 640 480 500 510 320 240\r\n");
    WriteText(dir + "/images.txt", images);
    WriteText(dir + "/points3D.txt", "");
    const Scene scene = ReadColmapText(dir);
    ASSERT_EQ(scene.images.size(), 1u);
    EXPECT_EQ(scene.images[0].name, "my image.jpg");
    EXPECT_TRUE(scene.images[0].registered);
    EXPECT_TRUE(scene.images[0].keypoints.empty());
  }
}

}  // namespace
}  // namespace proj
