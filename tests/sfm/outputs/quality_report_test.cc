// A model that failed its self-check is marked in every output a user reads: report.json's
// "quality" object (verdict, reasons, worst images, figures), the verdict heading report.html
// (reasons escaped), and the summary line on stdout; a good model says so in one line.
#include "sfm/outputs/quality_report.h"

#include <sstream>

#include <gtest/gtest.h>

#include "sfm/outputs/html_report.h"
#include "sfm/outputs/report_json.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

ReconstructionResult FailedResult() {
  ReconstructionResult result;
  testing::SyntheticSceneOptions options;
  options.num_images = 4;
  options.num_points = 100;
  result.scene = testing::MakeSyntheticScene(options);
  result.mapper.success = true;
  ModelQuality& quality = result.quality;
  quality.verdict = QualityVerdict::kFailed;
  quality.reasons = {"the cameras lie a median 29 m from their 23 GPS fixes <far>"};
  quality.worst_images = {"DSC_0017.JPG (289 m)", "DSC_0003.JPG (140 m)"};
  quality.gps.checked = true;
  quality.gps.num_fixes = 23;
  quality.gps.num_outliers = 19;
  quality.gps.median_m = 29;
  quality.gps.limit_m = 21.2;
  quality.pairs.checked = true;
  quality.pairs.num_strong_pairs = 256;
  quality.pairs.num_contradicted_pairs = 14;
  quality.pairs.worst_pairs = {"0017.jpg - 0022.jpg (67% of 419 matches off)"};
  result.rebuilt_with_gps = true;
  result.first_attempt = quality;
  return result;
}

TEST(QualityReport, FailedModelIsMarkedInReportJsonThePageAndTheSummary) {
  const std::string dir = testing::MakeTempDir("quality_report");
  const ReconstructionResult result = FailedResult();
  WriteReport(result, {}, dir + "/report.json");
  const std::string report = testing::ReadTextFile(dir + "/report.json");
  EXPECT_NE(report.find("\"quality\": {\n    \"verdict\": \"failed\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"reasons\": [\"the cameras lie a median 29 m from their 23 GPS fixes <far>\"]"),
            std::string::npos);
  EXPECT_NE(report.find("\"worst_images\": [\"DSC_0017.JPG (289 m)\", \"DSC_0003.JPG (140 m)\"]"), std::string::npos);
  EXPECT_NE(report.find("\"rebuilt_with_gps\": true"), std::string::npos);
  EXPECT_NE(report.find("\"first_attempt_verdict\": \"failed\""), std::string::npos);
  EXPECT_NE(report.find("\"fixes\": 23, \"outliers\": 19, \"median_error_m\": 29"), std::string::npos) << report;
  EXPECT_NE(report.find("\"pairs\": {\"checked\": true, \"strong_pairs\": 256, \"contradicted_pairs\": 14, "
                        "\"worst_pairs\": [\"0017.jpg - 0022.jpg (67% of 419 matches off)\"]}"),
            std::string::npos)
      << report;

  WriteHtmlReport(result, {}, dir + "/report.html", HtmlReportOptions());
  const std::string page = testing::ReadTextFile(dir + "/report.html");
  const size_t verdict = page.find("Verdict: <b>failed</b>");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, page.find("<h2>Summary</h2>"));  // ahead of the counts
  EXPECT_NE(page.find("<li>the cameras lie a median 29 m from their 23 GPS fixes &lt;far&gt;</li>"), std::string::npos);
  EXPECT_NE(page.find("DSC_0017.JPG (289 m)"), std::string::npos);
  EXPECT_NE(page.find("the model contradicts 14 of its 256 strongest pairs"), std::string::npos);

  const std::string line = QualitySummaryLine(result);
  EXPECT_EQ(line.rfind("model quality: failed: the cameras lie", 0), 0u) << line;
  EXPECT_NE(line.find("farthest from their GPS fixes: DSC_0017.JPG (289 m), DSC_0003.JPG (140 m)"), std::string::npos);
  EXPECT_NE(line.find("second attempt"), std::string::npos);
}

TEST(QualityReport, GoodModelInOneLine) {
  ReconstructionResult result = FailedResult();
  result.quality = ModelQuality();
  result.rebuilt_with_gps = false;
  EXPECT_EQ(QualitySummaryLine(result), "model quality: good");
  std::ostringstream object;
  WriteQualityObject(result, "", object);
  EXPECT_NE(object.str().find("\"verdict\": \"good\",\n  \"reasons\": [],"), std::string::npos) << object.str();
}

}  // namespace
}  // namespace proj
