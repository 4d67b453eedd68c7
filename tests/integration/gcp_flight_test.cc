// Ground control points end to end: a small synthetic drone flight (relief and buildings)
// without GPS in its EXIF, reconstructed with `--gcp` and three check points. The check
// points' surveyed positions are the true ones, so their RMS residual is the georeferenced
// model's accuracy: it must be below two ground sample distances. Bad GCP files are named
// with their line.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "datasets/synthetic/synthetic_flight.h"
#include "tests/integration/sfm_process.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

SyntheticFlightOptions SmallFlight() {
  SyntheticFlightOptions flight;
  flight.num_images = 20;
  flight.width = 512;
  flight.height = 384;
  flight.focal_px = 450;
  flight.write_gps = false;
  flight.num_gcps = 8;
  flight.num_threads = 2;
  return flight;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(GcpFlight, CheckPointsWithinTwoGroundSampleDistances) {
  const std::string dir = testing::MakeTempDir("gcp_flight");
  const SyntheticFlightOptions flight = SmallFlight();
  WriteSyntheticFlight(flight, dir);
  const std::string log = dir + "/reconstruct.log";
  const int exit_code = testing::RunSfmToEnd({"reconstruct", dir + "/images", "-o", dir + "/out", "--device", "cpu",
                                              "--threads", "2", "--gcp", dir + "/gcp_list.txt", "--gcp-check",
                                              "gcp2,gcp5,gcp8"},
                                             log);
  const std::string output = testing::ReadTextFile(log);
  ASSERT_EQ(exit_code, 0) << output;
  EXPECT_NE(output.find("GCPs: 5 control"), std::string::npos) << output;
  const std::string report = testing::ReadTextFile(dir + "/out/report.json");
  EXPECT_EQ(testing::ReportNumber(report, "images_with_gps"), 0);
  EXPECT_NE(report.find("\"georeferenced_by\": \"ground control points\""), std::string::npos);
  const size_t check = report.find("\"check_rms\"");
  ASSERT_NE(check, std::string::npos) << report;
  EXPECT_EQ(testing::ReportDouble(report, "points", check), 3);
  const double gsd_m = flight.altitude_m / flight.focal_px;  // on the terrain datum, nadir
  const double check_rms_m = testing::ReportDouble(report, "error_m", check);
  EXPECT_LT(check_rms_m, 2 * gsd_m) << "check-point RMS " << check_rms_m << " m, GSD " << gsd_m << " m";
  std::cout << "check-point RMS " << check_rms_m << " m = " << check_rms_m / gsd_m << " GSD" << std::endl;
  EXPECT_TRUE(std::ifstream(dir + "/out/points.las").good());

  // A GCP file that names an image of another flight: named with its line, before mapping.
  const std::string bad = dir + "/bad_gcp_list.txt";
  std::string text = testing::ReadTextFile(dir + "/gcp_list.txt");
  text.replace(text.find("0000.jpg"), 8, "9999.jpg");
  WriteText(bad, text);
  const int bad_exit = testing::RunSfmToEnd({"map", "--database", dir + "/out/database.db", "-o", dir + "/bad_out",
                                             "--threads", "2", "--gcp", bad},
                                            dir + "/bad.log");
  const std::string bad_output = testing::ReadTextFile(dir + "/bad.log");
  EXPECT_EQ(bad_exit, 2) << bad_output;
  EXPECT_NE(bad_output.find("bad_gcp_list.txt:2: image '9999.jpg' is not among the input images"), std::string::npos)
      << bad_output;
  EXPECT_EQ(bad_output.find("mapper:"), std::string::npos) << "the mapper ran before the file was checked";
}

TEST(GcpFlight, UnknownCrsFailsBeforeAnyWork) {
  const std::string dir = testing::MakeTempDir("gcp_bad_crs");
  WriteText(dir + "/gcp_list.txt", "WGS84 UTM 75N\n1 2 3 4 5 a.jpg\n");
  const int exit_code = testing::RunSfmToEnd({"reconstruct", dir, "-o", dir + "/out", "--gcp", dir + "/gcp_list.txt"},
                                             dir + "/log");
  const std::string output = testing::ReadTextFile(dir + "/log");
  EXPECT_EQ(exit_code, 2) << output;
  EXPECT_NE(output.find("gcp_list.txt:1: unknown coordinate reference system 'WGS84 UTM 75N'"), std::string::npos)
      << output;
}

}  // namespace
}  // namespace proj
