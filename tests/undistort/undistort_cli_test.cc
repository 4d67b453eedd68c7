// sfm undistort end to end: the synthetic ring reconstructed on the CPU, then undistorted.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/image_decode.h"
#include "sfm/image_source/image_source.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/integration/sfm_process.h"
#include "tests/integration/small_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

// The small ring reconstructed on the CPU: OUT/model with image_source.json. Its folder is
// named after the test: CTest runs each test in its own process, in parallel.
std::string ReconstructedRing() {
  const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string scene = testing::WriteSmallRingScene("undistort_" + name, 12);
  const int code = testing::RunSfmToEnd(
      {"reconstruct", scene + "/images", "-o", scene + "/out", "--device", "cpu", "--threads", "2"},
      scene + "/reconstruct.log");
  EXPECT_EQ(code, 0) << testing::ReadTextFile(scene + "/reconstruct.log");
  return scene;
}

// A model of one registered image, written by hand (no reconstruction needed).
std::string OneImageModel(const std::string& dir) {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 64, 48, 60));
  SceneImage image;
  image.name = "a.jpg";
  image.camera_id = 0;
  image.registered = true;
  image.keypoints = {Eigen::Vector2d(10, 10)};
  image.point3d_ids = {kInvalidId};
  scene.images.push_back(image);
  WriteColmapText(scene, dir + "/model");
  return dir + "/model";
}

struct UndistortRun {
  int exit_code = -1;
  std::string output;
};

UndistortRun Undistort(const std::vector<std::string>& arguments, const std::string& log_dir) {
  std::vector<std::string> all = {"undistort"};
  all.insert(all.end(), arguments.begin(), arguments.end());
  UndistortRun run;
  run.exit_code = testing::RunSfmToEnd(all, log_dir + "/undistort.log");
  run.output = testing::ReadTextFile(log_dir + "/undistort.log");
  return run;
}

double MedianReprojectionErrorPx(const Scene& scene) {
  std::vector<double> errors;
  for (const SceneImage& image : scene.images) {
    if (!image.registered) continue;
    for (size_t i = 0; i < image.keypoints.size(); ++i) {
      if (image.point3d_ids[i] == kInvalidId) continue;
      Eigen::Vector2d projected;
      const Eigen::Vector3d world = scene.points.at(image.point3d_ids[i]).position;
      if (!scene.cameras[image.camera_id].Project(image.cam_from_world * world, &projected)) continue;
      errors.push_back((projected - image.keypoints[i]).norm());
    }
  }
  if (errors.empty()) return 1e9;
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  return errors[errors.size() / 2];
}

TEST(UndistortCli, WritesPinholeModelAndImagesAndSkipsBrokenOnes) {
  const std::string scene = ReconstructedRing();
  ASSERT_TRUE(fs::exists(scene + "/out/model/" + kImageSourceFileName));
  EXPECT_EQ(ReadImageSource(scene + "/out/model/" + kImageSourceFileName).folders(),
            std::vector<std::string>{fs::absolute(scene + "/images").lexically_normal().string()});
  const std::string out = testing::MakeTempDir("undistort_cli_out");
  const UndistortRun run = Undistort({scene + "/out/model", "-o", out, "--threads", "2"}, out);
  ASSERT_EQ(run.exit_code, 0) << run.output;

  const Scene original = ReadColmapText(scene + "/out/model");
  const Scene undistorted = ReadColmapText(out + "/sparse");
  EXPECT_EQ(undistorted.NumRegisteredImages(), original.NumRegisteredImages());
  EXPECT_EQ(undistorted.points.size(), original.points.size());
  for (const Camera& camera : undistorted.cameras) EXPECT_EQ(camera.model, CameraModelId::kPinhole);
  const double median_px = MedianReprojectionErrorPx(undistorted);
  std::cout << "PINHOLE model: median reprojection error " << median_px << " px (original model "
            << MedianReprojectionErrorPx(original) << " px)" << std::endl;
  EXPECT_LT(median_px, 0.5);
  for (const SceneImage& image : undistorted.images) {
    if (!image.registered) continue;
    const Camera& camera = undistorted.cameras[image.camera_id];
    const ImageInfo info = ReadImageHeader(out + "/images/" + image.name);
    EXPECT_EQ(info.width, camera.width) << image.name;
    EXPECT_EQ(info.height, camera.height) << image.name;
  }

  // --image-path instead of the recorded folders; an image broken since: named, left out.
  const std::string dir = testing::MakeTempDir("undistort_cli_bad");
  fs::copy(scene + "/images", dir + "/images");
  std::string broken;
  for (const SceneImage& image : original.images) {
    if (image.registered) broken = image.name;
  }
  std::ofstream(dir + "/images/" + broken, std::ios::trunc) << "not an image any more\n";
  const UndistortRun rerun = Undistort({scene + "/out/model", "-o", dir + "/out", "--image-path", dir + "/images"}, dir);
  ASSERT_EQ(rerun.exit_code, 0) << rerun.output;
  EXPECT_NE(rerun.output.find(broken), std::string::npos) << rerun.output;
  EXPECT_FALSE(fs::exists(dir + "/out/images/" + broken));
  EXPECT_EQ(ReadColmapText(dir + "/out/sparse").NumRegisteredImages(), original.NumRegisteredImages() - 1);
}

TEST(UndistortCli, WithoutImageSourceOrImagePathIsAClearError) {
  const std::string dir = testing::MakeTempDir("undistort_cli_no_source");
  const std::string model = OneImageModel(dir);
  const UndistortRun run = Undistort({model, "-o", dir + "/out"}, dir);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--image-path"), std::string::npos) << run.output;
  // No image readable at all: nothing written, a non-zero exit.
  fs::create_directories(dir + "/empty");
  const UndistortRun none = Undistort({model, "-o", dir + "/out", "--image-path", dir + "/empty"}, dir);
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_FALSE(fs::exists(dir + "/out/sparse"));
}

}  // namespace
}  // namespace proj
