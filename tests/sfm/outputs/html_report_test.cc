// report.html without a browser: the page holds the counts, one row per image, the skipped
// files with their reasons (escaped), the picture, and the 3D view's data within its limit
// (or the note that the 3D view is missing when three.js was not bundled); after the dense
// stage, the dense cloud every k-th point within its own limit, in the frame of the sparse
// points, and the sparse-only page unchanged without a dense cloud.
#include "sfm/outputs/html_report.h"

#include <cstring>
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "sfm/outputs/output_writer.h"
#include "sfm/outputs/report_assets.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

ReconstructionResult SmallResult() {
  ReconstructionResult result;
  testing::SyntheticSceneOptions options;
  options.num_images = 6;
  options.num_points = 300;
  result.scene = testing::MakeSyntheticScene(options);
  result.scene.images[5].registered = false;
  result.mapper.success = true;
  result.skipped.push_back({"broken <1>.jpg", "truncated JPEG"});
  result.times.Add("feature_extraction", 1.5);
  result.times.Add("mapping", 0.25);
  return result;
}

TEST(HtmlReport, HoldsCountsImagesSkippedFilesPictureAndViewData) {
  const std::string dir = testing::MakeTempDir("html_report");
  ReconstructionResult result = SmallResult();
  for (size_t i = 0; i < result.scene.images.size(); ++i) result.scene.images[i].name = "view_" + std::to_string(i) + ".jpg";
  RunDescription run;
  run.images_dir = "/data/photos";
  run.command_line = "sfm reconstruct /data/photos -o out";
  HtmlReportOptions options;
  options.max_view_points = 100;
  WriteHtmlReport(result, run, dir + "/report.html", options);
  const std::string page = testing::ReadTextFile(dir + "/report.html");
  EXPECT_NE(page.find("<td>registered images</td><td class=\"num\">5 of 6</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>feature_extraction</td><td class=\"num\">1.50 s</td>"), std::string::npos);
  EXPECT_NE(page.find("broken &lt;1&gt;.jpg</td><td>truncated JPEG"), std::string::npos);
  for (int i = 0; i < 6; ++i) EXPECT_NE(page.find("<td>view_" + std::to_string(i) + ".jpg</td>"), std::string::npos);
  EXPECT_NE(page.find("view_5.jpg</td><td class=\"no\">not registered</td>"), std::string::npos);
  // Exact keypoints: the registered images' mean reprojection error is 0.
  EXPECT_NE(page.find("<td>view_0.jpg</td><td>registered</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"num\">0.000</td>"), std::string::npos);
  EXPECT_NE(page.find("src=\"data:image/png;base64,iVBORw0KGgo"), std::string::npos);  // PNG signature
  if (std::strlen(report_assets::kThreeModuleJs) == 0) {
    EXPECT_NE(page.find("3D view is missing"), std::string::npos);
    EXPECT_EQ(page.find("importmap"), std::string::npos);
    return;
  }
  EXPECT_NE(page.find("<script type=\"importmap\">"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos) << "the page must not load anything from the network";
  std::smatch match;
  const std::string total = "\"points_total\": " + std::to_string(result.scene.points.size());
  EXPECT_NE(page.find(total), std::string::npos);
  ASSERT_TRUE(std::regex_search(page, match, std::regex("\"points\": \"([A-Za-z0-9+/=]*)\"")));
  const size_t num_view_points = match[1].length() / 4 * 3 / 12;  // 3 floats per point
  EXPECT_LE(num_view_points, 100u);
  EXPECT_GE(num_view_points, 50u);
}

bool HaveViewer() { return std::strlen(report_assets::kThreeModuleJs) > 0; }

std::vector<uint8_t> DecodeBase64(const std::string& text) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<uint8_t> bytes;
  uint32_t bits = 0;
  int num_bits = 0;
  for (const char c : text) {
    if (c == '=') break;
    bits = (bits << 6) | static_cast<uint32_t>(alphabet.find(c));
    num_bits += 6;
    if (num_bits >= 8) {
      num_bits -= 8;
      bytes.push_back(static_cast<uint8_t>((bits >> num_bits) & 0xff));
    }
  }
  return bytes;
}

template <typename T>
std::vector<T> DecodeArray(const std::string& base64) {
  const std::vector<uint8_t> bytes = DecodeBase64(base64);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// The 3D view's data of `page`: field `name` ("points", "colors") of the dense object (found
// without std::regex, whose recursion overflows the stack on megabytes).
std::string DenseField(const std::string& page, const std::string& name) {
  const size_t dense = page.find("\"dense\": {");
  if (dense == std::string::npos) return "";
  const std::string key = "\"" + name + "\": \"";
  const size_t begin = page.find(key, dense);
  if (begin == std::string::npos) return "";
  const size_t end = page.find('"', begin + key.size());
  return page.substr(begin + key.size(), end - begin - key.size());
}

Eigen::Vector3d Origin(const std::string& page) {
  std::smatch match;
  const std::string number = "(-?[0-9.eE+-]+)";
  EXPECT_TRUE(std::regex_search(page, match, std::regex("\"origin\": \\[" + number + ", " + number + ", " + number + "\\]")));
  if (match.empty()) return Eigen::Vector3d::Zero();
  return {std::stod(match[1]), std::stod(match[2]), std::stod(match[3])};
}

// A grid of points around the synthetic scene's centre, coloured by index.
mvs::DenseCloud GridCloud(int num_points) {
  mvs::DenseCloud cloud;
  for (int i = 0; i < num_points; ++i) {
    cloud.positions.emplace_back(0.001f * (i % 1000), 0.001f * (i / 1000 % 1000), 0.5f + 0.001f * (i / 1000000));
    cloud.normals.emplace_back(0, 0, 1);
    cloud.colors.push_back({static_cast<uint8_t>(i % 251), 7, 9});
  }
  return cloud;
}

ReconstructionResult DenseResult() {
  ReconstructionResult result = SmallResult();
  result.dense.emplace();
  result.dense->workspace = "out/dense";
  result.dense->device = "cpu";
  result.dense->num_images = 5;
  result.dense->num_depth_maps_computed = 4;
  result.dense->num_depth_maps_reused = 1;
  return result;
}

TEST(HtmlReport, DenseCloudIsEmbeddedEveryKthPointWithinItsLimitInTheSparseFrame) {
  const std::string dir = testing::MakeTempDir("html_report_dense");
  const ReconstructionResult result = DenseResult();
  const mvs::DenseCloud cloud = GridCloud(5003);
  HtmlReportOptions options;
  options.max_dense_view_points = 1000;  // every 6th point: 834 of 5,003
  WriteHtmlReport(result, {}, dir + "/report.html", options, &cloud);
  const std::string page = testing::ReadTextFile(dir + "/report.html");
  EXPECT_NE(page.find("<h2>Dense cloud</h2>"), std::string::npos);
  EXPECT_NE(page.find("<td>depth maps computed / reused</td><td class=\"num\">4 / 1</td>"), std::string::npos);
  if (!HaveViewer()) {
    EXPECT_NE(page.find("<td>dense points</td><td class=\"num\">5,003</td>"), std::string::npos);
    GTEST_SKIP() << "three.js not bundled into this build: no 3D view data to check";
  }
  EXPECT_NE(page.find("<td>dense points</td><td class=\"num\">5,003 (834 shown in the 3D view)</td>"),
            std::string::npos);
  EXPECT_NE(page.find("\"dense\": {\"points_total\": 5003"), std::string::npos);
  const std::vector<float> points = DecodeArray<float>(DenseField(page, "points"));
  const std::vector<uint8_t> colors = DecodeArray<uint8_t>(DenseField(page, "colors"));
  ASSERT_EQ(points.size(), 3u * 834);
  ASSERT_EQ(colors.size(), 3u * 834);
  // Point k of the page is point 6k of the cloud, relative to the origin of the sparse points.
  const Eigen::Vector3d origin = Origin(page);
  for (const int k : {0, 1, 500, 833}) {
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR(points[3 * k + axis] + origin[axis], cloud.positions[6 * k][axis], 1e-5) << k;
      EXPECT_EQ(colors[3 * k + axis], cloud.colors[6 * k][axis]) << k;
    }
  }
}

TEST(HtmlReport, DefaultDenseLimitKeepsAMillionPointCloudUnderSixteenMegabytes) {
  if (!HaveViewer()) GTEST_SKIP() << "three.js not bundled into this build";
  const std::string dir = testing::MakeTempDir("html_report_dense_cap");
  const mvs::DenseCloud cloud = GridCloud(1200000);
  WriteHtmlReport(DenseResult(), {}, dir + "/report.html", {}, &cloud);
  const std::string page = testing::ReadTextFile(dir + "/report.html");
  EXPECT_NE(page.find("1,200,000 (400,000 shown in the 3D view)"), std::string::npos);
  EXPECT_EQ(DecodeArray<float>(DenseField(page, "points")).size(), 3u * 400000);
  EXPECT_LT(page.size(), 16u << 20);
}

TEST(HtmlReport, PageWithoutDenseCloudIsTheSparsePage) {
  const std::string dir = testing::MakeTempDir("html_report_no_dense");
  const ReconstructionResult result = SmallResult();
  const mvs::DenseCloud empty;
  WriteHtmlReport(result, {}, dir + "/sparse.html");
  WriteHtmlReport(result, {}, dir + "/empty_cloud.html", {}, &empty);
  const std::string page = testing::ReadTextFile(dir + "/sparse.html");
  EXPECT_EQ(page, testing::ReadTextFile(dir + "/empty_cloud.html"));
  EXPECT_EQ(page.find("\"dense\""), std::string::npos);
  EXPECT_EQ(page.find("Dense cloud"), std::string::npos);
}

TEST(HtmlReport, DenseStagePagesReadTheWorkspaceCloud) {
  const std::string dir = testing::MakeTempDir("html_report_workspace");
  std::filesystem::create_directories(dir + "/dense");
  mvs::WriteDenseCloudPly(dir + "/dense/points.ply", GridCloud(2500));
  const ReconstructionResult result = DenseResult();
  WriteReportPageWithDenseCloud(result, {}, dir);
  WriteDenseWorkspaceReportPage(result.scene, *result.dense, "out/model", dir + "/dense");
  const std::string page = testing::ReadTextFile(dir + "/report.html");
  const std::string dense_page = testing::ReadTextFile(dir + "/dense/report.html");
  EXPECT_NE(page.find("<h1>Reconstruction report</h1>"), std::string::npos);
  EXPECT_NE(dense_page.find("<h1>Dense reconstruction report</h1>"), std::string::npos);
  EXPECT_NE(dense_page.find("<td>sparse points</td><td class=\"num\">" +
                            std::to_string(result.scene.points.size())), std::string::npos);
  for (const std::string* p : {&page, &dense_page}) {
    EXPECT_NE(p->find("<td>dense points</td><td class=\"num\">2,500"), std::string::npos);
    if (HaveViewer()) {
      EXPECT_EQ(DecodeArray<float>(DenseField(*p, "points")).size(), 3u * 2500);
    }
  }
}

}  // namespace
}  // namespace proj
