#include "sfm/gcp/gcp_file.h"

#include <gtest/gtest.h>

#include "core/check.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

// The message of the InputError ParseGcpFile throws for `text` ("" when it parses).
std::string ParseError(const std::string& text) {
  try {
    ParseGcpFile(text, "gcp_list.txt");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

const char kGood[] =
    "EPSG:32615\n"
    "# surveyed 2026-07-01\n"
    "576091.20 5188120.76 190.54 321.2 229.8 0000.jpg gcp1\n"
    "576091.20 5188120.76 190.54 347.2 346.4 0001.jpg gcp1 extra fields\n"
    "\n"
    "576150.00 5188100.00 191.00 10 20 0000.jpg\n"
    "576150.00 5188100.00 191.00 30 40 0002.jpg\n";

TEST(GcpFile, GroupsMarksByNameOrCoordinates) {
  const GcpFile file = ParseGcpFile(kGood, "gcp_list.txt");
  EXPECT_EQ(file.crs, "EPSG:32615");
  ASSERT_EQ(file.points.size(), 2u);
  EXPECT_EQ(file.points[0].name, "gcp1");
  EXPECT_EQ(file.points[0].line, 3);
  ASSERT_EQ(file.points[0].observations.size(), 2u);
  EXPECT_EQ(file.points[0].observations[1].image_name, "0001.jpg");
  EXPECT_EQ(file.points[0].observations[1].line, 4);
  EXPECT_EQ(file.points[0].observations[1].pixel, Eigen::Vector2d(347.2, 346.4));
  EXPECT_NEAR(file.points[0].wgs84.latitude_deg, 46.84, 0.01);
  EXPECT_NEAR(file.points[0].wgs84.longitude_deg, -92.0, 0.01);
  EXPECT_DOUBLE_EQ(file.points[0].wgs84.altitude_m, 190.54);
  EXPECT_EQ(file.points[1].name, "(576150.00, 5188100.00, 191.00)");
  EXPECT_EQ(file.points[1].observations.size(), 2u);
}

TEST(GcpFile, ErrorsNameTheLine) {
  EXPECT_EQ(ParseError(kGood), "");
  EXPECT_NE(ParseError("EPSG:999999\n").find("gcp_list.txt:1: unknown coordinate reference system"), std::string::npos);
  EXPECT_NE(ParseError("\n# comment\nWGS84 UTM 99N\n").find("gcp_list.txt:3: unknown"), std::string::npos);
  EXPECT_NE(ParseError("EPSG:32615\n1 2 3 4 5\n").find("gcp_list.txt:2: expected"), std::string::npos);
  EXPECT_NE(ParseError("EPSG:32615\n1 2 x 4 5 a.jpg\n").find("gcp_list.txt:2: field 3 ('x') is not a number"),
            std::string::npos);
  EXPECT_NE(ParseError("EPSG:32615\n576091 5188120 190 1 2 a.jpg p\n576091 5188120 190 1 2 b.jpg q\n")
                .find("gcp_list.txt:2: point 'p' is marked in one image only"),
            std::string::npos);
  EXPECT_NE(ParseError("EPSG:32615\n576091 5188120 190 1 2 a.jpg p\n576091 5188120 190 3 4 a.jpg p\n")
                .find("gcp_list.txt:3: point 'p' is marked in 'a.jpg' already on line 2"),
            std::string::npos);
  EXPECT_NE(ParseError("EPSG:32615\n576091 5188120 190 1 2 a.jpg p\n576092 5188120 190 3 4 b.jpg p\n")
                .find("gcp_list.txt:3: point 'p' was given other coordinates on line 2"),
            std::string::npos);
  EXPECT_NE(ParseError("EPSG:4326\n200 95 0 1 2 a.jpg p\n200 95 0 3 4 b.jpg p\n").find("gcp_list.txt:2: "),
            std::string::npos);
  EXPECT_NE(ParseError("").find("gcp_list.txt: empty GCP file"), std::string::npos);
}

TEST(GcpFile, ObservationsAreCheckedAgainstTheImages) {
  const GcpFile file = ParseGcpFile(kGood, "gcp_list.txt");
  std::map<std::string, Eigen::Vector2i> sizes = {{"0000.jpg", {640, 480}}, {"0001.jpg", {640, 480}},
                                                  {"0002.jpg", {640, 480}}};
  EXPECT_NO_THROW(CheckGcpObservations(file, sizes));
  sizes["0001.jpg"] = {320, 240};  // line 4's pixel (347.2, 346.4) is outside
  try {
    CheckGcpObservations(file, sizes);
    ADD_FAILURE() << "a pixel outside the image was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("gcp_list.txt:4: pixel (347.2, 346.4) is outside the 320x240 image '0001.jpg'"),
              std::string::npos)
        << error.what();
  }
  sizes.erase("0002.jpg");
  sizes["0001.jpg"] = {640, 480};
  try {
    CheckGcpObservations(file, sizes);
    ADD_FAILURE() << "an unknown image was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("gcp_list.txt:7: image '0002.jpg' is not among the input images"),
              std::string::npos)
        << error.what();
  }
}

TEST(GcpFile, CheckNamesMustBePoints) {
  const GcpFile file = ParseGcpFile(kGood, "gcp_list.txt");
  EXPECT_NO_THROW(CheckGcpNames(file, {"gcp1"}));
  EXPECT_THROW(CheckGcpNames(file, {"gcp1", "gcp9"}), InputError);
}

TEST(GcpFile, ReadsAFile) {
  const std::string path = testing::MakeTempDir("gcp_file") + "/gcp_list.txt";
  EXPECT_THROW(ReadGcpFile(path), InputError);  // missing
  FILE* out = std::fopen(path.c_str(), "w");
  ASSERT_NE(out, nullptr);
  std::fputs(kGood, out);
  std::fclose(out);
  EXPECT_EQ(ReadGcpFile(path).points.size(), 2u);
}

}  // namespace
}  // namespace proj
