// report.html without a browser: the page holds the counts, one row per image, the skipped
// files with their reasons (escaped), the picture, and the 3D view's data within its limit
// (or the note that the 3D view is missing when three.js was not bundled).
#include "sfm/outputs/html_report.h"

#include <cstring>
#include <regex>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace proj
