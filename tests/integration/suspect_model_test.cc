// A wrong model is never a result: a small synthetic flight geotagged with a clock offset
// (each photo carries the fix taken 3 shots later, GpsFault::kTimeOffset). Vision builds the
// right model, and no similarity brings it onto those fixes: the self-check fails it, the run
// maps once more with the GPS as a constraint from the start, which pulls the cameras onto
// the wrong fixes only at a cost in reprojection error it refuses, and so the model is
// written, marked, and the exit code is 3. --accept-suspect-model exits 0 with the same verdict.
#include <string>

#include <gtest/gtest.h>

#include "datasets/synthetic/synthetic_flight.h"
#include "tests/integration/sfm_process.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

TEST(SuspectModel, FlightGeotaggedWithAClockOffsetExitsThree) {
  const std::string dir = testing::MakeTempDir("suspect_model");
  SyntheticFlightOptions flight;
  flight.num_images = 12;
  flight.width = 512;
  flight.height = 384;
  flight.focal_px = 450;
  flight.num_gcps = 0;
  flight.gps_fault = GpsFault::kTimeOffset;
  flight.num_threads = 2;
  WriteSyntheticFlight(flight, dir);
  const std::string log = dir + "/reconstruct.log";
  const int exit_code = testing::RunSfmToEnd(
      {"reconstruct", dir + "/images", "-o", dir + "/out", "--device", "cpu", "--threads", "2"}, log);
  const std::string output = testing::ReadTextFile(log);
  EXPECT_EQ(exit_code, 3) << output;
  EXPECT_NE(output.find("mapping once more with the GPS as a constraint"), std::string::npos) << output;
  EXPECT_NE(output.find("the model failed its quality checks"), std::string::npos) << output;
  EXPECT_NE(output.find("farthest from their GPS fixes: "), std::string::npos) << output;
  const std::string report = testing::ReadTextFile(dir + "/out/report.json");
  EXPECT_EQ(report.find("\"verdict\": \"good\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"quality\": {"), std::string::npos) << report;
  EXPECT_NE(testing::ReadTextFile(dir + "/out/report.html").find("Verdict: <b>"), std::string::npos);
  EXPECT_EQ(testing::ReportNumber(report, "registered_images"), flight.num_images);  // written all the same

  const int accepted = testing::RunSfmToEnd({"map", "--database", dir + "/out/database.db", "-o", dir + "/accepted",
                                             "--threads", "2", "--no-gps-rebuild", "--accept-suspect-model"},
                                            dir + "/accepted.log");
  EXPECT_EQ(accepted, 0) << testing::ReadTextFile(dir + "/accepted.log");
  const std::string accepted_report = testing::ReadTextFile(dir + "/accepted/report.json");
  EXPECT_EQ(accepted_report.find("\"verdict\": \"good\""), std::string::npos) << accepted_report;
  EXPECT_NE(accepted_report.find("\"rebuilt_with_gps\": false"), std::string::npos);
}

}  // namespace
}  // namespace proj
