// Our LAS files read back by readers that share no code with ours: copc.js and laz-perf
// (LASzip's reader, the decoder PDAL and QGIS use), through node and
// tests/io/las_independent_read.mjs. Header, CRS keys (projected and vertical, with their
// names) and every point and colour must come back as written. Skipped with a message when
// node or the npm packages (scripts/install_test_tools.sh fetches them) are absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "io/child_process.h"
#include "io/las_file.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

// What the independent reader printed.
struct IndependentRead {
  std::map<std::string, std::string> header;  // name -> the rest of the line
  std::vector<std::string> vlrs;              // "USER_ID RECORD_ID"
  std::map<int, std::string> geokeys;
  std::vector<std::array<double, 6>> points;
};

IndependentRead ParseReaderOutput(const std::string& text) {
  IndependentRead read;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    std::string rest;
    if (kind == "header") {
      std::string name;
      fields >> name;
      std::getline(fields >> std::ws, rest);
      read.header[name] = rest;
    } else if (kind == "vlr") {
      std::getline(fields >> std::ws, rest);
      read.vlrs.push_back(rest);
    } else if (kind == "geokey") {
      int id = 0;
      fields >> id;
      std::getline(fields >> std::ws, rest);
      read.geokeys[id] = rest;
    } else if (kind == "point") {
      std::array<double, 6> p{};
      for (double& v : p) fields >> v;
      read.points.push_back(p);
    }
  }
  return read;
}

class LasInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    modules_ = std::string(PROJ_TEST_TOOLS_DIR) + "/node_modules";
    if (!FindProgram("node")) GTEST_SKIP() << "node not installed (scripts/setup.sh installs it)";
    if (!std::filesystem::exists(modules_ + "/copc/package.json") ||
        !std::filesystem::exists(modules_ + "/laz-perf/package.json")) {
      GTEST_SKIP() << "copc and laz-perf not in " << modules_
                   << " (scripts/install_test_tools.sh fetches them)";
    }
  }
  IndependentRead Read(const std::string& las) {
    ChildProcess node({"node", std::string(PROJ_SOURCE_DIR) + "/tests/io/las_independent_read.mjs",
                       las, modules_});
    const std::string output = node.ReadAll();
    EXPECT_EQ(node.Wait(), 0) << node.ErrorOutput();
    return ParseReaderOutput(output);
  }
  std::string modules_;
};

// Brighton Beach's magnitudes: UTM 15N, heights above sea level.
LasPointCloud SurveyCloud() {
  LasPointCloud cloud;
  cloud.epsg = 32615;
  cloud.vertical_epsg = 5773;
  cloud.crs_name = "WGS 84 / UTM zone 15N";
  cloud.vertical_crs_name = "EGM96 height";
  cloud.system_identifier = "sfm sparse model";
  for (int i = 0; i < 1000; ++i) {
    cloud.positions.emplace_back(576661.25 + 0.1371 * i, 5188114.5 - 0.2113 * i, 156.0 + 0.0137 * (i % 97));
    cloud.colors.push_back({static_cast<uint8_t>(i % 256), static_cast<uint8_t>(255 - i % 256),
                            static_cast<uint8_t>(i * 7 % 256)});
  }
  return cloud;
}

TEST_F(LasInterop, IndependentReaderGetsHeaderCrsPointsAndColours) {
  const std::string path = testing::MakeTempDir("las_interop") + "/points.las";
  const LasPointCloud cloud = SurveyCloud();
  WriteLasFile(path, cloud);
  const IndependentRead read = Read(path);
  EXPECT_EQ(read.header.at("version"), "1.2");
  EXPECT_EQ(read.header.at("point_format"), "2 26");
  EXPECT_EQ(read.header.at("point_count"), "1000");
  EXPECT_EQ(read.header.at("system_identifier"), "sfm sparse model");
  EXPECT_THAT(read.vlrs, ::testing::ElementsAre("LASF_Projection 34735", "LASF_Projection 34737"));
  EXPECT_EQ(read.geokeys.at(1024), "1");      // projected model
  EXPECT_EQ(read.geokeys.at(3072), "32615");  // WGS 84 / UTM zone 15N
  EXPECT_EQ(read.geokeys.at(3073), "WGS 84 / UTM zone 15N");
  EXPECT_EQ(read.geokeys.at(3076), "9001");   // metre
  EXPECT_EQ(read.geokeys.at(4096), "5773");   // EGM96 height
  EXPECT_EQ(read.geokeys.at(4097), "EGM96 height");
  EXPECT_EQ(read.geokeys.at(4099), "9001");
  ASSERT_EQ(read.points.size(), cloud.positions.size());
  for (size_t i = 0; i < cloud.positions.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(read.points[i][k], cloud.positions[i][k], 0.0005 + 1e-9) << i << " axis " << k;
    }
    for (int c = 0; c < 3; ++c) EXPECT_EQ(read.points[i][3 + c], cloud.colors[i][c] * 257.0) << i;
  }
  // The header's bounds agree with the points.
  std::istringstream min(read.header.at("min")), max(read.header.at("max"));
  double min_x = 0, max_x = 0;
  min >> min_x;
  max >> max_x;
  EXPECT_NEAR(min_x, 576661.25, 1e-6);
  EXPECT_NEAR(max_x, 576661.25 + 0.1371 * 999, 1e-6);
}

TEST_F(LasInterop, EllipsoidalHeightsHaveNoVerticalKey) {
  const std::string path = testing::MakeTempDir("las_interop_ellipsoid") + "/points.las";
  LasPointCloud cloud = SurveyCloud();
  cloud.vertical_epsg = 0;
  cloud.vertical_crs_name.clear();
  WriteLasFile(path, cloud);
  const IndependentRead read = Read(path);
  EXPECT_EQ(read.geokeys.at(3072), "32615");
  EXPECT_EQ(read.geokeys.count(4096), 0u);
  EXPECT_EQ(read.points.size(), 1000u);
}

}  // namespace
}  // namespace proj
