// sfm dense end to end on the CPU: a small synthetic ring (320x240) reconstructed, then its
// depth maps computed, resumed after a deletion, an option change and Ctrl-C, and bad input
// named; sfm reconstruct --dense writes the "dense" object of report.json; both write their
// report page with the dense stage (OUT/dense/report.html, OUT/report.html).
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/float_raster_file.h"
#include "io/image_encode.h"
#include "mvs/dense_cloud.h"
#include "mvs/depth_map.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/integration/sfm_process.h"
#include "tests/integration/small_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

using testing::ReportNumber;

struct SfmRun {
  int exit_code = -1;
  std::string output;
};

SfmRun Sfm(const std::vector<std::string>& arguments, const std::string& log) {
  SfmRun run;
  run.exit_code = testing::RunSfmToEnd(arguments, log);
  run.output = testing::ReadTextFile(log);
  return run;
}

// The small synthetic ring at 320x240, reconstructed on the CPU into DIR/out; DIR.
std::string ReconstructedSmallRing(const std::string& name, const std::vector<std::string>& extra = {}) {
  const std::string dir = testing::WriteSmallRingScene(name, 12, 320);
  std::vector<std::string> arguments = {"reconstruct", dir + "/images", "-o", dir + "/out", "--device", "cpu",
                                        "--threads", "2"};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  const SfmRun run = Sfm(arguments, dir + "/reconstruct.log");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return dir;
}

// Cheap PatchMatch (2 sweeps, 3 sources, 7x7 windows): these tests check the stage, the
// benchmarks (bench/dense_*) the depth maps' accuracy.
std::vector<std::string> DenseArguments(const std::string& dir, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> arguments = {"dense", dir + "/out/model", "-o", dir + "/out", "--device", "cpu",
                                        "--threads", "2", "--dense-iterations", "2", "--dense-num-sources", "3",
                                        "--dense-window-radius", "3"};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return arguments;
}

std::string DepthMapPath(const std::string& dir, const std::string& name) {
  return dir + "/out/dense/stereo/depth_maps/" + name + ".photometric.bin";
}

// Share of the pixels with a depth whose ratio to the true depth is within 5% of the median
// ratio (the model's scale is its own), over the pixels with both.
double ShareOfConsistentDepths(const mvs::DepthMap& depth, const FloatRaster& truth) {
  std::vector<double> ratios;
  for (int y = 0; y < depth.height(); ++y) {
    for (int x = 0; x < depth.width(); ++x) {
      if (depth.At(x, y) > 0 && truth.At(x, y) > 0) ratios.push_back(depth.At(x, y) / truth.At(x, y));
    }
  }
  if (ratios.empty()) return 0;
  std::vector<double> sorted = ratios;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double median = sorted[sorted.size() / 2];
  const auto within = std::count_if(ratios.begin(), ratios.end(),
                                    [&](double ratio) { return std::abs(ratio / median - 1) < 0.05; });
  return static_cast<double>(within) / ratios.size();
}

// The page holds the dense stage's table and, when fusion wrote a cloud, the cloud in its 3D
// view (when three.js is bundled: the page has an import map).
void ExpectReportPageWithDenseCloud(const std::string& page_path, const std::string& cloud_path) {
  const std::string page = testing::ReadTextFile(page_path);
  EXPECT_NE(page.find("<h2>Dense cloud</h2>"), std::string::npos) << page_path;
  if (!fs::exists(cloud_path) || page.find("importmap") == std::string::npos) return;
  const size_t num_points = mvs::ReadDenseCloudPly(cloud_path).size();
  if (num_points == 0) return;
  EXPECT_NE(page.find("\"dense\": {\"points_total\": " + std::to_string(num_points)), std::string::npos) << page_path;
}

TEST(DenseCli, WritesEveryDepthMapAndResumesOnlyWhatIsMissingOrStale) {
  const std::string dir = ReconstructedSmallRing("dense_cli");
  const Scene model = ReadColmapText(dir + "/out/model");
  const int registered = model.NumRegisteredImages();
  ASSERT_GE(registered, 8);

  const SfmRun first = Sfm(DenseArguments(dir), dir + "/dense1.log");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  std::cout << first.output;
  const std::string report = testing::ReadTextFile(dir + "/out/dense/report.json");
  EXPECT_EQ(ReportNumber(report, "images"), registered) << report;
  EXPECT_EQ(ReportNumber(report, "depth_maps_computed"), registered) << report;
  EXPECT_EQ(ReportNumber(report, "depth_maps_reused"), 0) << report;
  ExpectReportPageWithDenseCloud(dir + "/out/dense/report.html", dir + "/out/dense/points.ply");
  const Scene pinhole = ReadColmapText(dir + "/out/dense/sparse");
  EXPECT_EQ(pinhole.NumRegisteredImages(), registered);
  for (const SceneImage& image : pinhole.images) {
    if (!image.registered) continue;
    const Camera& camera = pinhole.cameras[image.camera_id];
    const mvs::DepthMap depth = mvs::ReadDepthMap(DepthMapPath(dir, image.name));
    EXPECT_EQ(depth.width(), camera.width) << image.name;
    EXPECT_EQ(depth.height(), camera.height) << image.name;
    EXPECT_TRUE(fs::exists(dir + "/out/dense/stereo/normal_maps/" + image.name + ".photometric.bin"));
    EXPECT_TRUE(fs::exists(dir + "/out/dense/stereo/cost_maps/" + image.name + ".photometric.bin"));
    const double share = ShareOfConsistentDepths(depth, ReadFloatRasterFile(dir + "/depth/" + image.name + ".bin"));
    std::cout << image.name << ": " << 100 * share << "% of depths within 5% of the true depth's scale\n";
    EXPECT_GT(share, 0.3) << image.name;
  }

  // The same command again: nothing computed, nothing rewritten.
  const std::string some_map = DepthMapPath(dir, pinhole.images[pinhole.images.size() - 1].name);
  const auto written = fs::last_write_time(some_map);
  const SfmRun again = Sfm(DenseArguments(dir), dir + "/dense2.log");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const std::string report_again = testing::ReadTextFile(dir + "/out/dense/report.json");
  EXPECT_EQ(ReportNumber(report_again, "depth_maps_computed"), 0) << report_again;
  EXPECT_EQ(ReportNumber(report_again, "depth_maps_reused"), registered) << report_again;
  EXPECT_EQ(ReportNumber(report_again, "images_undistorted"), 0) << report_again;
  EXPECT_EQ(fs::last_write_time(some_map), written);

  // A depth map deleted: only it is computed again.
  std::string deleted;
  for (const SceneImage& image : pinhole.images) {
    if (image.registered) deleted = image.name;
  }
  fs::remove(DepthMapPath(dir, deleted));
  const SfmRun after_delete = Sfm(DenseArguments(dir), dir + "/dense3.log");
  ASSERT_EQ(after_delete.exit_code, 0) << after_delete.output;
  EXPECT_EQ(ReportNumber(testing::ReadTextFile(dir + "/out/dense/report.json"), "depth_maps_computed"), 1);
  EXPECT_TRUE(fs::exists(DepthMapPath(dir, deleted)));

  // Another image size: every image and map is redone, at the new size. The rest of the test
  // stays at this size (a quarter of the pixels, a quarter of the time).
  const std::vector<std::string> small = {"--dense-max-image-size", "160"};
  const SfmRun smaller = Sfm(DenseArguments(dir, small), dir + "/dense4.log");
  ASSERT_EQ(smaller.exit_code, 0) << smaller.output;
  const std::string report_smaller = testing::ReadTextFile(dir + "/out/dense/report.json");
  EXPECT_EQ(ReportNumber(report_smaller, "depth_maps_computed"), registered) << report_smaller;
  EXPECT_EQ(ReportNumber(report_smaller, "images_undistorted"), registered) << report_smaller;
  EXPECT_EQ(mvs::ReadDepthMap(DepthMapPath(dir, deleted)).width(), 160);

  // Ctrl-C once the first depth map is written: exit code 130, the maps under way finish; the
  // same command computes only the maps the interrupted run did not.
  fs::remove_all(dir + "/out/dense/stereo");
  const testing::SignalledRun interrupted =
      testing::RunSfmAndSignal(DenseArguments(dir, small), "computing depth maps: 1/", 0, {SIGINT});
  ASSERT_TRUE(interrupted.signalled) << interrupted.stderr_text;
  ASSERT_EQ(interrupted.exit_code, 130) << interrupted.stderr_text;
  int finished = 0;
  for (const SceneImage& image : pinhole.images) finished += image.registered && fs::exists(DepthMapPath(dir, image.name));
  EXPECT_GE(finished, 1);
  EXPECT_LT(finished, registered);
  const SfmRun resumed = Sfm(DenseArguments(dir, small), dir + "/dense5.log");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  const std::string report_resumed = testing::ReadTextFile(dir + "/out/dense/report.json");
  EXPECT_EQ(ReportNumber(report_resumed, "depth_maps_computed"), registered - finished) << report_resumed;
  EXPECT_EQ(ReportNumber(report_resumed, "depth_maps_reused"), finished) << report_resumed;

  // An image of another size than its camera: named and skipped, the others kept. The copies
  // keep the photos' times, so the other undistorted images and maps are reused.
  const std::string copy = dir + "/copy";
  fs::create_directories(copy);
  for (const auto& entry : fs::directory_iterator(dir + "/images")) {
    const std::string target = copy + "/" + entry.path().filename().string();
    fs::copy_file(entry.path(), target);
    fs::last_write_time(target, fs::last_write_time(entry.path()));
  }
  WriteJpeg(copy + "/" + deleted, Image{160, 120, 3, std::vector<uint8_t>(160 * 120 * 3, 90)});
  const SfmRun wrong_size =
      Sfm(DenseArguments(dir, {"--dense-max-image-size", "160", "--image-path", copy}), dir + "/dense6.log");
  ASSERT_EQ(wrong_size.exit_code, 0) << wrong_size.output;
  EXPECT_NE(wrong_size.output.find(deleted), std::string::npos) << wrong_size.output;
  EXPECT_NE(wrong_size.output.find("160x120"), std::string::npos) << wrong_size.output;
  const std::string report_wrong = testing::ReadTextFile(dir + "/out/dense/report.json");
  EXPECT_NE(report_wrong.find("\"name\": \"" + deleted + "\""), std::string::npos) << report_wrong;
  EXPECT_EQ(ReportNumber(report_wrong, "images_undistort_reused"), registered - 1) << report_wrong;
}

// A model of two registered images, written by hand (nothing to reconstruct).
std::string TwoImageModel(const std::string& dir, bool registered = true) {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 64, 48, 60));
  for (const char* name : {"a.jpg", "b.jpg"}) {
    SceneImage image;
    image.name = name;
    image.camera_id = 0;
    image.registered = registered;
    scene.images.push_back(image);
  }
  WriteColmapText(scene, dir + "/model");
  return dir + "/model";
}

TEST(DenseCli, BadInputIsNamedWithExitCodeTwo) {
  const std::string dir = testing::MakeTempDir("dense_cli_bad");
  const std::string model = TwoImageModel(dir);
  fs::create_directories(dir + "/images");

  // No image in the folder.
  const SfmRun missing = Sfm({"dense", model, "-o", dir + "/out", "--image-path", dir + "/images"}, dir + "/missing.log");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("a.jpg"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("no image of the model could be undistorted"), std::string::npos) << missing.output;

  // Images of another size than their camera.
  for (const char* name : {"a.jpg", "b.jpg"}) {
    WriteJpeg(dir + "/images/" + name, Image{32, 24, 3, std::vector<uint8_t>(32 * 24 * 3, 128)});
  }
  const SfmRun wrong = Sfm({"dense", model, "-o", dir + "/out", "--image-path", dir + "/images"}, dir + "/wrong.log");
  EXPECT_EQ(wrong.exit_code, 2) << wrong.output;
  EXPECT_NE(wrong.output.find("a.jpg"), std::string::npos) << wrong.output;
  EXPECT_NE(wrong.output.find("32x24"), std::string::npos) << wrong.output;

  // No registered image.
  const std::string empty = TwoImageModel(dir + "/unregistered", /*registered=*/false);
  const SfmRun none = Sfm({"dense", empty, "-o", dir + "/out", "--image-path", dir + "/images"}, dir + "/none.log");
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_NE(none.output.find("has no registered image"), std::string::npos) << none.output;
  EXPECT_NE(none.output.find(empty), std::string::npos) << none.output;

  // No image source recorded and no --image-path; a model folder that is not there.
  const SfmRun no_source = Sfm({"dense", model, "-o", dir + "/out"}, dir + "/no_source.log");
  EXPECT_EQ(no_source.exit_code, 2) << no_source.output;
  EXPECT_NE(no_source.output.find("--image-path"), std::string::npos) << no_source.output;
  const SfmRun no_model = Sfm({"dense", dir + "/nowhere", "-o", dir + "/out"}, dir + "/no_model.log");
  EXPECT_EQ(no_model.exit_code, 2) << no_model.output;
  EXPECT_NE(no_model.output.find(dir + "/nowhere"), std::string::npos) << no_model.output;

  // Bad options are refused before any work.
  const SfmRun bad_option = Sfm({"dense", model, "-o", dir + "/out", "--image-path", dir + "/images",
                              "--dense-num-sources", "0"},
                             dir + "/bad_option.log");
  EXPECT_EQ(bad_option.exit_code, 2) << bad_option.output;
  EXPECT_NE(bad_option.output.find("source images per depth map must be in [1, 16]"), std::string::npos) << bad_option.output;
}

TEST(DenseCli, ReconstructDenseReportsTheDenseStage) {
  const std::string dir = ReconstructedSmallRing(
      "dense_cli_reconstruct", {"--dense", "--dense-iterations", "2", "--dense-num-sources", "3",
                                "--dense-window-radius", "3", "--dense-max-image-size", "160"});
  const std::string report = testing::ReadTextFile(dir + "/out/report.json");
  const long long registered = ReportNumber(report, "registered_images");
  ASSERT_GE(registered, 8) << report;
  const size_t dense = report.find("\"dense\": {");
  ASSERT_NE(dense, std::string::npos) << report;
  EXPECT_EQ(ReportNumber(report.substr(dense), "depth_maps_computed"), registered) << report;
  EXPECT_NE(report.find("\"dense\": "), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/out/dense/sparse/cameras.txt"));
  EXPECT_TRUE(fs::exists(dir + "/out/points.ply"));  // the sparse outputs are there too
  ExpectReportPageWithDenseCloud(dir + "/out/report.html", dir + "/out/dense/points.ply");

  // sfm dense on the model the run wrote finds every map up to date (the stage hashed the
  // model as written, not as it held it).
  const SfmRun again = Sfm(DenseArguments(dir, {"--dense-max-image-size", "160"}), dir + "/dense_again.log");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const std::string report_again = testing::ReadTextFile(dir + "/out/dense/report.json");
  EXPECT_EQ(ReportNumber(report_again, "depth_maps_computed"), 0) << report_again;
  EXPECT_EQ(ReportNumber(report_again, "depth_maps_reused"), registered) << report_again;
}

}  // namespace
}  // namespace proj
