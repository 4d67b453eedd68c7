// report.html as a person sees it: headless Chromium (Debian package `chromium`, installed by
// scripts/install_test_tools.sh) loads the page of a small synthetic model from the file
// system, offline; the page logs nothing to the console and its 3D view's canvas shows the
// points in their colours; with a dense cloud, the view shows the dense points (not the sparse
// ones) and says how many of how many. Skipped with a message when chromium is missing.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "io/image_decode.h"
#include "sfm/outputs/html_report.h"
#include "sfm/outputs/report_assets.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

constexpr Rgb8 kPointColors[] = {{240, 200, 30}, {40, 210, 240}};

bool HaveChromium() { return std::system("command -v chromium > /dev/null 2>&1") == 0; }

// Runs headless Chromium on `page` with `mode` (--screenshot=... or --dump-dom); returns
// stdout and writes the browser's log (console messages included) to `log`.
std::string RunChromium(const std::string& page, const std::string& mode, const std::string& log) {
  // --no-sandbox: tests may run as root. --enable-unsafe-swiftshader: WebGL on the CPU, our
  // own trusted page. The virtual time budget lets the module scripts run to the end.
  const std::string command =
      "chromium --headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader "
      "--enable-logging=stderr --v=0 --virtual-time-budget=5000 --window-size=1200,900 " +
      mode + " file://" + page + " 2> " + log;
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  pclose(pipe);
  return out;
}

// Console messages of the page; Chromium's own WebGL driver notes ("[.WebGL-...] GL Driver
// Message ... GPU stall due to ReadPixels", from taking the screenshot) are not the page's.
std::vector<std::string> ConsoleMessages(const std::string& log) {
  std::vector<std::string> messages;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(":CONSOLE") == std::string::npos) continue;
    if (line.find("\"[.WebGL-") != std::string::npos) continue;
    messages.push_back(line);
  }
  return messages;
}

TEST(ReportPage, OpensOfflineWithoutConsoleErrorsAndTheViewShowsThePoints) {
  if (!HaveChromium()) GTEST_SKIP() << "chromium not installed (scripts/install_test_tools.sh installs it)";
  const std::string dir = testing::MakeTempDir("report_page");
  ReconstructionResult result;
  testing::SyntheticSceneOptions options;
  options.num_points = 3000;
  result.scene = testing::MakeSyntheticScene(options);
  int i = 0;
  for (auto& [id, point] : result.scene.points) {
    const Rgb8& color = kPointColors[i++ % 2];
    point.color << color[0], color[1], color[2];
  }
  result.mapper.success = true;
  result.times.Add("mapping", 1.0);
  RunDescription run;
  run.images_dir = dir;
  const std::string page = dir + "/report.html";
  WriteHtmlReport(result, run, page);

  const std::string dom = RunChromium(page, "--dump-dom", dir + "/dom_log.txt");
  const std::string dom_log = testing::ReadTextFile(dir + "/dom_log.txt");
  ASSERT_NE(dom.find("Reconstruction report"), std::string::npos) << dom_log;
  EXPECT_TRUE(ConsoleMessages(dom_log).empty()) << ConsoleMessages(dom_log).front();
  if (std::strlen(report_assets::kThreeModuleJs) == 0) {
    EXPECT_NE(dom.find("3D view is missing"), std::string::npos);
    GTEST_SKIP() << "three.js not bundled into this build: checked the page without its 3D view";
  }
  EXPECT_NE(dom.find("3,000 points, 10 cameras"), std::string::npos) << "the viewer did not finish";
  std::smatch rect;
  ASSERT_TRUE(std::regex_search(dom, rect, std::regex("data-rect=\"(\\d+),(\\d+),(\\d+),(\\d+)\"")))
      << "no 3D view canvas";

  const std::string shot = dir + "/shot.png";
  RunChromium(page, "--screenshot=" + shot, dir + "/shot_log.txt");
  const std::string shot_log = testing::ReadTextFile(dir + "/shot_log.txt");
  EXPECT_TRUE(ConsoleMessages(shot_log).empty()) << ConsoleMessages(shot_log).front();
  const Image image = ReadImageFile(shot);
  ASSERT_EQ(image.channels, 3);
  const int x0 = std::stoi(rect[1]), y0 = std::stoi(rect[2]);
  const int x1 = std::min(image.width, x0 + std::stoi(rect[3]));
  const int y1 = std::min(image.height, y0 + std::stoi(rect[4]));
  ASSERT_GT(x1 - x0, 100);
  ASSERT_GT(y1 - y0, 100);
  int num_point_pixels = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      for (const Rgb8& color : kPointColors) {
        int distance = 0;
        for (int c = 0; c < 3; ++c) distance += std::abs(image.pixel(x, y)[c] - color[c]);
        num_point_pixels += distance < 30;
      }
    }
  }
  // 3,000 points of 2x2 px, some hidden behind others.
  EXPECT_GT(num_point_pixels, 2000) << "the 3D view's canvas is blank; screenshot: " << shot;
}

// Pixels of the canvas (data-rect of `dom`) in `shot` within a small distance of `color`.
int CountCanvasPixels(const std::string& dom, const std::string& shot, const Rgb8& color) {
  std::smatch rect;
  if (!std::regex_search(dom, rect, std::regex("data-rect=\"(\\d+),(\\d+),(\\d+),(\\d+)\""))) return -1;
  const Image image = ReadImageFile(shot);
  const int x0 = std::stoi(rect[1]), y0 = std::stoi(rect[2]);
  const int x1 = std::min(image.width, x0 + std::stoi(rect[3]));
  const int y1 = std::min(image.height, y0 + std::stoi(rect[4]));
  int count = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      int distance = 0;
      for (int c = 0; c < 3; ++c) distance += std::abs(image.pixel(x, y)[c] - color[c]);
      count += distance < 30;
    }
  }
  return count;
}

TEST(ReportPage, ShowsTheDenseCloudInsteadOfTheSparsePointsAndSaysHowManyOfHowMany) {
  if (!HaveChromium()) GTEST_SKIP() << "chromium not installed (scripts/install_test_tools.sh installs it)";
  if (std::strlen(report_assets::kThreeModuleJs) == 0) GTEST_SKIP() << "three.js not bundled into this build";
  const std::string dir = testing::MakeTempDir("report_page_dense");
  ReconstructionResult result;
  testing::SyntheticSceneOptions options;
  options.num_points = 3000;
  result.scene = testing::MakeSyntheticScene(options);
  for (auto& [id, point] : result.scene.points) point.color << 240, 200, 30;
  result.mapper.success = true;
  result.dense.emplace();
  // 60,000 dense points of another colour over the sparse points' box, 20,000 shown.
  const Rgb8 dense_color = {230, 40, 230};
  Eigen::Vector3d low = Eigen::Vector3d::Constant(1e9), high = -low;
  for (const auto& [id, point] : result.scene.points) {
    low = low.cwiseMin(point.position);
    high = high.cwiseMax(point.position);
  }
  mvs::DenseCloud cloud;
  for (int i = 0; i < 60000; ++i) {
    const Eigen::Vector3d t((i % 240) / 240.0, (i / 240 % 250) / 250.0, (i * 7919 % 1000) / 1000.0);
    cloud.positions.push_back((low + t.cwiseProduct(high - low)).cast<float>());
    cloud.normals.emplace_back(0, 0, 1);
    cloud.colors.push_back(dense_color);
  }
  HtmlReportOptions report_options;
  report_options.max_dense_view_points = 20000;
  const std::string page = dir + "/report.html";
  WriteHtmlReport(result, RunDescription{dir, "cpu", ""}, page, report_options, &cloud);

  const std::string dom = RunChromium(page, "--dump-dom", dir + "/dom_log.txt");
  const std::string dom_log = testing::ReadTextFile(dir + "/dom_log.txt");
  EXPECT_TRUE(ConsoleMessages(dom_log).empty()) << ConsoleMessages(dom_log).front();
  EXPECT_NE(dom.find("dense cloud: 60k points, 20k shown; sparse: 3,000 points, 10 cameras"), std::string::npos)
      << "the viewer did not finish";
  EXPECT_NE(dom.find("id=\"viewer-switches\""), std::string::npos) << "no dense/sparse switches";
  const std::string shot = dir + "/shot.png";
  RunChromium(page, "--screenshot=" + shot, dir + "/shot_log.txt");
  EXPECT_GT(CountCanvasPixels(dom, shot, dense_color), 5000) << "no dense points in the view; screenshot: " << shot;
  EXPECT_EQ(CountCanvasPixels(dom, shot, {240, 200, 30}), 0) << "sparse points shown; screenshot: " << shot;
}

}  // namespace
}  // namespace proj
