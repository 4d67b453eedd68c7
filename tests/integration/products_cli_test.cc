// The map products end to end on the CPU: a small synthetic drone flight with GPS,
// `sfm reconstruct --products` (cheap dense options), dsm.tif read back with GDAL (UTM zone
// of the flight, COG layout, NaN nodata, the grid report.json states, heights of the terrain
// about the flight's origin); `sfm products OUT` again at another resolution from the dense
// cloud already there; a folder without a georeference refused with the reason. The products
// opened as QGIS layers (CRS, extent) when QGIS is installed (scripts/install_qgis.sh).
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "datasets/synthetic/synthetic_flight.h"
#include "geometry/geodesy/map_projection.h"
#include "io/geotiff_file.h"
#include "tests/integration/sfm_process.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

SyntheticFlightOptions SmallFlight() {
  SyntheticFlightOptions flight;
  flight.num_images = 16;
  flight.width = 384;
  flight.height = 288;
  flight.focal_px = 340;
  flight.num_gcps = 0;
  flight.num_threads = 2;
  return flight;
}

// Cheap PatchMatch at 192 px: these tests check the products, bench/ their accuracy.
const std::vector<std::string> kCheapDense = {"--dense-max-image-size", "192", "--dense-iterations", "2",
                                              "--dense-num-sources", "3", "--dense-window-radius", "3"};

// dsm.tif as sfm writes it: a COG in the flight's UTM zone, the grid of report.json's
// "products" object (from `from`), heights about the terrain's (z = 0 of the ENU frame at the
// origin's ellipsoidal height, 0 to ~25 m of relief and buildings; the GPS altitudes are
// EGM96, about 30 m above the ellipsoid at Duluth).
void ExpectSurfaceModel(const std::string& path, const std::string& report, const SyntheticFlightOptions& flight) {
  const GeoTiffRaster dsm = ReadGeoTiff(path);
  EXPECT_EQ(dsm.horizontal_epsg, 32615);
  EXPECT_EQ(dsm.band_type, "Float32");
  EXPECT_EQ(dsm.layout, "COG");
  EXPECT_TRUE(dsm.has_nodata && std::isnan(dsm.nodata));
  EXPECT_EQ(dsm.width, testing::ReportDouble(report, "width"));
  EXPECT_EQ(dsm.height, testing::ReportDouble(report, "height"));
  EXPECT_DOUBLE_EQ(dsm.transform[1], testing::ReportDouble(report, "resolution_m"));
  EXPECT_DOUBLE_EQ(dsm.transform[5], -testing::ReportDouble(report, "resolution_m"));
  // The flight's origin lies inside the grid, and the grid spans tens to hundreds of metres.
  const MapProjection projection(flight.origin);
  const Eigen::Vector3d origin = projection.MapFromEnu(Eigen::Vector3d::Zero());
  const double east = dsm.transform[0] + dsm.width * dsm.transform[1];
  const double south = dsm.transform[3] + dsm.height * dsm.transform[5];
  EXPECT_GT(origin.x(), dsm.transform[0]);
  EXPECT_LT(origin.x(), east);
  EXPECT_LT(origin.y(), dsm.transform[3]);
  EXPECT_GT(origin.y(), south);
  EXPECT_GT(east - dsm.transform[0], 20);
  EXPECT_LT(east - dsm.transform[0], 1000);
  std::vector<float> heights;
  for (const float h : dsm.band1) {
    if (std::isfinite(h)) heights.push_back(h);
  }
  ASSERT_GT(heights.size(), dsm.band1.size() / 4) << "most of the grid has heights";
  std::sort(heights.begin(), heights.end());
  const double datum = flight.origin.ref_altitude_m;
  std::cout << path << ": " << dsm.width << " x " << dsm.height << " cells of " << dsm.transform[1]
            << " m, heights " << heights.front() << " .. " << heights[heights.size() / 2] << " (median) .. "
            << heights.back() << ", " << 100.0 * heights.size() / dsm.band1.size() << "% known\n";
  EXPECT_GT(heights[heights.size() / 2], datum - 15);
  EXPECT_LT(heights[heights.size() / 2], datum + 60);
}

// orthophoto.tif next to `dsm.tif`: an RGBA COG on exactly the surface model's grid, coloured
// over most of it (the flight's textured ground), transparent only where unseen.
void ExpectOrthophoto(const std::string& path, const std::string& dsm_path) {
  const GeoTiffRaster ortho = ReadGeoTiff(path);
  const GeoTiffRaster dsm = ReadGeoTiff(dsm_path);
  EXPECT_EQ(ortho.num_bands, 4);
  EXPECT_EQ(ortho.band_type, "Byte");
  EXPECT_EQ(ortho.layout, "COG");
  EXPECT_EQ(ortho.horizontal_epsg, 32615);
  EXPECT_EQ(ortho.width, dsm.width);
  EXPECT_EQ(ortho.height, dsm.height);
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(ortho.transform[i], dsm.transform[i]);
  ASSERT_EQ(ortho.bytes.size(), 4u * ortho.width * ortho.height);
  size_t coloured = 0, known = 0, coloured_on_known = 0;
  double sum = 0;
  for (size_t cell = 0; cell < dsm.band1.size(); ++cell) {
    const bool seen = ortho.bytes[4 * cell + 3] == 255;
    coloured += seen;
    known += std::isfinite(dsm.band1[cell]);
    coloured_on_known += seen && std::isfinite(dsm.band1[cell]);
    if (seen) sum += ortho.bytes[4 * cell] + ortho.bytes[4 * cell + 1] + ortho.bytes[4 * cell + 2];
  }
  std::cout << path << ": " << coloured << " of " << dsm.band1.size() << " cells coloured, " << coloured_on_known
            << " of the " << known << " with a height\n";
  EXPECT_GT(coloured_on_known, known * 8 / 10) << "most of the surface is seen by some photo";
  EXPECT_EQ(coloured, coloured_on_known) << "no colour where the surface model has no height";
  EXPECT_GT(sum / (3.0 * coloured), 20) << "not black";
}

TEST(ProductsCli, ReconstructProductsWritesAGeoreferencedSurfaceModel) {
  const std::string dir = testing::MakeTempDir("products_cli");
  const SyntheticFlightOptions flight = SmallFlight();
  WriteSyntheticFlight(flight, dir);
  std::vector<std::string> arguments = {"reconstruct", dir + "/images", "-o", dir + "/out", "--device", "cpu",
                                        "--threads", "2", "--products"};
  arguments.insert(arguments.end(), kCheapDense.begin(), kCheapDense.end());
  ASSERT_EQ(testing::RunSfmToEnd(arguments, dir + "/reconstruct.log"), 0) << testing::ReadTextFile(dir + "/reconstruct.log");
  const std::string report = testing::ReadTextFile(dir + "/out/report.json");
  const size_t products = report.find("\"products\": {");
  ASSERT_NE(products, std::string::npos) << report;
  const std::string products_report = report.substr(products);
  EXPECT_NE(products_report.find("\"crs\": \"EPSG:32615"), std::string::npos) << products_report;
  // The automatic cell: twice the ground sample distance, to two digits.
  const double gsd = testing::ReportDouble(products_report, "ground_sample_distance_m");
  EXPECT_NEAR(testing::ReportDouble(products_report, "resolution_m"), 2 * gsd, 0.05 * 2 * gsd) << products_report;
  ExpectSurfaceModel(dir + "/out/dsm.tif", products_report, flight);
  ExpectOrthophoto(dir + "/out/orthophoto.tif", dir + "/out/dsm.tif");
  EXPECT_NE(testing::ReadTextFile(dir + "/out/report.html").find("<h2>Map products</h2>"), std::string::npos);

  // Again from the output folder at 1 m: the dense cloud is reused, not recomputed.
  const std::string log = dir + "/products.log";
  ASSERT_EQ(testing::RunSfmToEnd({"products", dir + "/out", "--dsm-resolution-m", "1", "--threads", "2"}, log), 0)
      << testing::ReadTextFile(log);
  EXPECT_NE(testing::ReadTextFile(log).find("dense cloud: "), std::string::npos) << testing::ReadTextFile(log);
  const std::string again = testing::ReadTextFile(dir + "/out/products.json");
  EXPECT_EQ(testing::ReportDouble(again, "resolution_m"), 1.0) << again;
  ExpectSurfaceModel(dir + "/out/dsm.tif", again, flight);
  ExpectOrthophoto(dir + "/out/orthophoto.tif", dir + "/out/dsm.tif");
  EXPECT_NE(testing::ReadTextFile(dir + "/out/products.html").find("<h2>Map products</h2>"), std::string::npos);

  // A model without georeference.json: refused, saying why.
  fs::create_directories(dir + "/plain");
  fs::copy(dir + "/out/model", dir + "/plain/model");
  const std::string refused = dir + "/refused.log";
  EXPECT_EQ(testing::RunSfmToEnd({"products", dir + "/plain"}, refused), 2);
  EXPECT_NE(testing::ReadTextFile(refused).find("not georeferenced"), std::string::npos) << testing::ReadTextFile(refused);
  EXPECT_FALSE(fs::exists(dir + "/plain/dsm.tif"));
}

// Runs the QGIS script on `files`; its output in `log`. The exit code (77: QGIS missing).
int ReadWithQgis(const std::vector<std::string>& files, const std::string& log) {
  // Debian's Python, which has python3-qgis, even when another python3 comes first on PATH.
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  std::string command = python + " " + std::string(PROJ_SOURCE_DIR) + "/tests/integration/qgis_read_layers.py";
  for (const std::string& file : files) command += " '" + file + "'";
  const int status = std::system((command + " > '" + log + "' 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The two kinds of product our writers make (float heights, RGBA) open in QGIS with their CRS
// and extent.
TEST(ProductsCli, QgisOpensTheProductsWithTheirCrsAndExtent) {
  const std::string dir = testing::MakeTempDir("products_qgis");
  const GeoTransform transform = {566000.0, 0.5, 0, 5188000.0, 0, -0.5};
  WriteFloatGeoTiff(dir + "/dsm.tif", 60, 40, std::vector<float>(60 * 40, 220.0f), transform, "EPSG:32615+5773");
  WriteRgbaGeoTiff(dir + "/orthophoto.tif", 60, 40, std::vector<uint8_t>(60 * 40 * 4, 200), transform, "EPSG:32615");
  const std::string log = dir + "/qgis.log";
  const int code = ReadWithQgis({dir + "/dsm.tif", dir + "/orthophoto.tif"}, log);
  const std::string output = testing::ReadTextFile(log);
  if (code == 77) GTEST_SKIP() << output;
  ASSERT_EQ(code, 0) << output;
  std::cout << output;
  // The compound CRS keeps its horizontal part's code in QGIS's authid, or names the compound.
  EXPECT_NE(output.find("\"crs\": \"EPSG:32615"), std::string::npos) << output;
  EXPECT_NE(output.find("\"bands\": 4"), std::string::npos) << output;
  EXPECT_NE(output.find("\"extent\": [566000.0, 5187980.0, 566030.0, 5188000.0]"), std::string::npos) << output;
}

}  // namespace
}  // namespace proj
