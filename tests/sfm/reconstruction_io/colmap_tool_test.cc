// Our COLMAP models as COLMAP itself reads them: `colmap model_analyzer` counts what we count
// and `colmap model_converter` turns our binary model into text we read back unchanged. Runs
// only where COLMAP is installed (/usr/bin/colmap).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/reconstruction_io/colmap_written_subset.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/sfm/reconstruction_io/colmap_test_support.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

namespace fs = std::filesystem;
constexpr const char* kColmap = "/usr/bin/colmap";

// Runs `colmap ARGUMENTS` (no display needed) and returns its stdout and stderr together.
std::string RunColmap(const std::string& arguments, const std::string& log) {
  const std::string command = std::string("QT_QPA_PLATFORM=offscreen ") + kColmap + " " +
                              arguments + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string output = testing::ReadText(log);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << "\n" << output;
  return output;
}

// The "Name: N" lines of `colmap model_analyzer`, e.g. {"Registered images", 12}.
std::map<std::string, long long> AnalyzerCounts(const std::string& output) {
  std::map<std::string, long long> counts;
  const std::regex line(R"(([A-Za-z ]+): (\d+)\s*$)");
  std::smatch match;
  std::istringstream stream(output);
  for (std::string text; std::getline(stream, text);) {
    if (std::regex_search(text, match, line)) counts[match[1]] = std::stoll(match[2]);
  }
  return counts;
}

struct Counts {
  long long cameras = 0, registered_images = 0, points = 0, observations = 0;
};

// What a COLMAP model of `scene` holds (colmap_written_subset.h).
Counts OurCounts(const Scene& scene) {
  Counts counts;
  counts.cameras = static_cast<long long>(scene.cameras.size());
  counts.registered_images = scene.NumRegisteredImages();
  for (const auto& [id, point] : scene.points) {
    const int n = internal::NumRegisteredObservations(scene, point);
    counts.points += n > 0 ? 1 : 0;
    counts.observations += n;
  }
  return counts;
}

void ExpectAnalyzerAgrees(const std::string& model_dir, const Counts& ours,
                          const std::string& log) {
  auto counts = AnalyzerCounts(RunColmap("model_analyzer --path " + model_dir, log));
  EXPECT_EQ(counts["Cameras"], ours.cameras) << model_dir;
  EXPECT_EQ(counts["Registered images"], ours.registered_images) << model_dir;
  EXPECT_EQ(counts["Points"], ours.points) << model_dir;
  EXPECT_EQ(counts["Observations"], ours.observations) << model_dir;
}

TEST(ColmapTool, ReadsOurTextAndBinaryModelsAsWeDo) {
  if (!fs::exists(kColmap)) GTEST_SKIP() << kColmap << " not installed (apt-get install colmap)";
  Scene scene = testing::MakeSyntheticScene(testing::SyntheticSceneOptions{});
  scene.images[1].registered = false;  // COLMAP must not see it, nor its observations
  const std::string root = testing::MakeTempDir("colmap_tool");
  const std::string text_dir = root + "/text", binary_dir = root + "/binary";
  const std::string converted_dir = root + "/converted";
  fs::create_directories(converted_dir);
  WriteColmapText(scene, text_dir);
  WriteColmapBinary(scene, binary_dir);
  const Counts ours = OurCounts(scene);
  ASSERT_GT(ours.observations, 0);
  ExpectAnalyzerAgrees(text_dir, ours, root + "/analyze_text.log");
  ExpectAnalyzerAgrees(binary_dir, ours, root + "/analyze_binary.log");

  RunColmap("model_converter --input_path " + binary_dir + " --output_path " + converted_dir +
                " --output_type TXT",
            root + "/convert.log");
  testing::ExpectScenesEqual(ReadColmapText(text_dir), ReadColmapText(converted_dir));
}

}  // namespace
}  // namespace proj
