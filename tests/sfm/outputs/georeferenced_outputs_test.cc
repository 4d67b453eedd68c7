// The outputs of a model aligned to GPS: georeference.json and report.json's "georeference",
// points.las in the UTM zone of the data (read back: points, CRS, colours), cameras.csv with
// both positions in ENU and WGS84; and none of them for a model without GPS.
#include "sfm/outputs/georeferenced_outputs.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "geometry/geodesy/utm_projection.h"
#include "geometry/geodesy/vertical_datum.h"
#include "io/las_file.h"
#include "sfm/mapper/prior_alignment.h"
#include "sfm/outputs/output_writer.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

// A small synthetic model georeferenced near Brighton Beach's flight (UTM zone 15N): GPS fixes
// at the true centres (10 m scale) with 5 cm noise, image 2's fix 20 m off, image 4 without GPS.
ReconstructionResult GeoreferencedResult() {
  ReconstructionResult result;
  testing::SyntheticSceneOptions options;
  options.num_images = 6;
  options.num_points = 200;
  Scene truth = testing::MakeSyntheticScene(options);
  TransformScene(Sim3d(10.0, Eigen::Quaterniond::Identity(), Eigen::Vector3d(0, 0, 50)), &truth);
  for (auto& [id, point] : truth.points) point.color = {static_cast<uint8_t>(id % 256), 100, 200};
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0, 0.05);
  for (int i = 0; i < 6; ++i) {
    if (i == 4) continue;
    PositionPrior prior;
    prior.position = truth.images[i].cam_from_world.Center() +
                     Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
    if (i == 2) prior.position.y() += 20;
    prior.sigma.setConstant(0.05);
    truth.position_priors[i] = prior;
  }
  result.scene = truth;
  TransformScene(Sim3d(0.3, Eigen::Quaterniond(Eigen::AngleAxisd(1.0, Eigen::Vector3d::UnitY())),
                       Eigen::Vector3d(1, 2, 3)),
                 &result.scene);
  PriorAlignmentOptions alignment_options;
  alignment_options.max_error_m = 1.0;
  result.mapper.georeference = AlignSceneToPriors(alignment_options, 1, &result.scene);
  result.mapper.success = true;
  result.enu_frame = EnuFrame{46.84, -92.0, 180.0};
  return result;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(GeoreferencedOutputs, WritesJsonLasAndCsvInTheOutputSet) {
  const ReconstructionResult result = GeoreferencedResult();
  ASSERT_TRUE(IsGeoreferenced(result)) << result.mapper.georeference.failure_reason;
  const std::string dir = testing::MakeTempDir("georeferenced_outputs");
  WriteReconstructionOutputs(result, RunDescription{"/data/drone", "cpu", "sfm reconstruct"}, dir);

  const std::string json = testing::ReadTextFile(dir + "/georeference.json");
  EXPECT_THAT(json, HasSubstr("\"georeferenced\": true"));
  EXPECT_THAT(json, HasSubstr("\"latitude_deg\": 46.84, \"longitude_deg\": -92, \"altitude_m\": 180"));
  EXPECT_THAT(json, HasSubstr("\"las_crs\": \"EPSG:32615\""));
  EXPECT_THAT(json, HasSubstr("\"gps_inliers\": 4"));
  EXPECT_THAT(json, HasSubstr("\"name\": \"image_2.jpg\""));
  EXPECT_THAT(json, HasSubstr("\"inlier\": false"));
  const std::string report = testing::ReadTextFile(dir + "/report.json");
  EXPECT_THAT(report, HasSubstr("\"georeference\": {\n    \"georeferenced\": true"));
  EXPECT_THAT(testing::ReadTextFile(dir + "/report.html"), HasSubstr("<h2>GPS</h2>"));

  // points.las: every point, in UTM 15N, coloured; distances as in the ENU model (UTM's scale
  // factor is within 0.1% of 1 here).
  const LasPointCloud las = ReadLasFile(dir + "/points.las");
  EXPECT_EQ(las.epsg, 32615);
  ASSERT_EQ(las.positions.size(), result.scene.points.size());
  const Eigen::Vector3d origin_utm = UtmProjection({15, true}).FromWgs84({46.84, -92.0, 180.0});
  size_t i = 0;
  const Eigen::Vector3d first_enu = result.scene.points.begin()->second.position;
  for (const auto& [id, point] : result.scene.points) {
    EXPECT_EQ(las.colors[i], point.color);
    const double enu_distance = (point.position - first_enu).norm();
    const double utm_distance = (las.positions[i] - las.positions[0]).norm();
    EXPECT_NEAR(utm_distance, enu_distance, 1e-3 * enu_distance + 0.002);
    EXPECT_LT((las.positions[i] - origin_utm - point.position).head<2>().norm(),
              0.02 * point.position.norm() + 0.01);  // grid convergence: under a degree
    EXPECT_NEAR(las.positions[i].z(), 180.0 + point.position.z(), 0.01);
    ++i;
  }

  // cameras.csv: one row per image; image 2's fix is an outlier, image 4 has none.
  const std::vector<std::string> rows = Lines(testing::ReadTextFile(dir + "/cameras.csv"));
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_THAT(rows[0], HasSubstr("image,registered,gps_status,est_east_m"));
  EXPECT_THAT(rows[1], HasSubstr("image_0.jpg,1,inlier,"));
  EXPECT_THAT(rows[3], HasSubstr("image_2.jpg,1,outlier,"));
  EXPECT_THAT(rows[5], HasSubstr("image_4.jpg,1,none,"));
  EXPECT_EQ(std::count(rows[5].begin(), rows[5].end(), ','), 15);
  // Row 1: estimated and GPS latitude close (centimetres = 1e-7 degrees), error in metres.
  std::vector<std::string> fields;
  std::istringstream row(rows[1]);
  for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
  ASSERT_EQ(fields.size(), 16u);
  EXPECT_NEAR(std::stod(fields[6]), std::stod(fields[12]), 3e-6);
  EXPECT_NEAR(std::stod(fields[6]), 46.84, 0.01);
  EXPECT_NEAR(std::stod(fields[7]), -92.0, 0.01);
  EXPECT_LT(std::stod(fields[15]), 0.5);
}

// Fixes above sea level: the frame is ellipsoidal, the outputs come back above sea level
// (EGM96, EPSG:5773 in the LAS file) and say so.
TEST(GeoreferencedOutputs, HeightsAboveSeaLevelWhenTheFixesWere) {
  const HeightConverter geoid;
  if (!geoid.available()) GTEST_SKIP() << MissingGeoidGridMessage();
  ReconstructionResult result = GeoreferencedResult();
  result.enu_frame->heights = VerticalDatum::kEllipsoid;
  result.enu_frame->output_heights = VerticalDatum::kEgm96;
  const double undulation = geoid.GeoidUndulationM(46.84, -92.0);
  const std::string dir = testing::MakeTempDir("georeferenced_sea_level");
  WriteReconstructionOutputs(result, RunDescription{"/data/drone", "cpu", "sfm reconstruct"}, dir);
  const std::string json = testing::ReadTextFile(dir + "/georeference.json");
  EXPECT_THAT(json, HasSubstr("\"las_crs\": \"EPSG:32615+5773\""));
  EXPECT_THAT(json, HasSubstr("\"las_crs_name\": \"WGS 84 / UTM zone 15N + EGM96 height\""));
  EXPECT_THAT(json, HasSubstr("\"height_datum\": \"WGS 84 ellipsoidal height\""));
  EXPECT_THAT(json, HasSubstr("\"gps_altitude_datum\": \"EGM96 height\""));
  EXPECT_THAT(json, HasSubstr("\"output_height_datum\": \"EGM96 height\""));
  EXPECT_THAT(json, HasSubstr("\"geoid_height_at_origin_m\": -2"));  // about -28.7 m
  const LasPointCloud las = ReadLasFile(dir + "/points.las");
  EXPECT_EQ(las.epsg, 32615);
  EXPECT_EQ(las.vertical_epsg, 5773);
  EXPECT_EQ(las.vertical_crs_name, "EGM96 height");
  size_t i = 0;
  for (const auto& [id, point] : result.scene.points) {
    EXPECT_NEAR(las.positions[i++].z(), 180.0 + point.position.z() - undulation, 0.01);
  }
  // cameras.csv: altitudes above sea level too (column 9: the estimated altitude).
  const std::vector<std::string> rows = Lines(testing::ReadTextFile(dir + "/cameras.csv"));
  std::vector<std::string> fields;
  std::istringstream row(rows[1]);
  for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
  const double up = std::stod(fields[5]);
  EXPECT_NEAR(std::stod(fields[8]), 180.0 + up - undulation, 0.01);
}

// A later command (sfm dense) reads the frame back from georeference.json and writes its
// points as points.las was written: same CRS, same coordinates for the same points.
TEST(GeoreferencedOutputs, FrameReadBackWritesPointsAsTheModelsLas) {
  const ReconstructionResult result = GeoreferencedResult();
  const std::string dir = testing::MakeTempDir("georeference_read_back");
  WriteReconstructionOutputs(result, RunDescription{"/data/drone", "cpu", "sfm reconstruct"}, dir);
  const std::optional<EnuFrame> frame = ReadEnuFrameFromGeoreferenceJson(dir + "/georeference.json");
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->ref_latitude_deg, 46.84);
  EXPECT_EQ(frame->ref_longitude_deg, -92.0);
  EXPECT_EQ(frame->ref_altitude_m, 180.0);
  EXPECT_EQ(frame->heights, VerticalDatum::kEllipsoid);
  EXPECT_EQ(frame->output_heights, VerticalDatum::kEllipsoid);
  EXPECT_FALSE(frame->fixes_datum.has_value());

  // The model's points as a dense cloud would give them: floats, Rgb8 colours.
  std::vector<Eigen::Vector3f> positions;
  std::vector<Rgb8> colors;
  for (const auto& [id, point] : result.scene.points) {
    positions.push_back(point.position.cast<float>());
    colors.push_back({point.color[0], point.color[1], point.color[2]});
  }
  WriteGeoreferencedPointsLas(*frame, positions, colors, "sfm dense cloud", dir + "/dense.las");
  const LasPointCloud sparse = ReadLasFile(dir + "/points.las");
  const LasPointCloud dense = ReadLasFile(dir + "/dense.las");
  EXPECT_EQ(dense.epsg, sparse.epsg);
  EXPECT_EQ(dense.vertical_epsg, sparse.vertical_epsg);
  EXPECT_EQ(dense.crs_name, sparse.crs_name);
  EXPECT_EQ(dense.system_identifier, "sfm dense cloud");
  ASSERT_EQ(dense.positions.size(), sparse.positions.size());
  for (size_t i = 0; i < dense.positions.size(); ++i) {
    EXPECT_LT((dense.positions[i] - sparse.positions[i]).norm(), 0.002);  // the 1 mm grid, float input
    EXPECT_EQ(dense.colors[i], sparse.colors[i]);
  }
  EXPECT_THROW(WriteGeoreferencedPointsLas(*frame, positions, {}, "x", dir + "/bad.las"), InputError);
}

TEST(GeoreferencedOutputs, FrameReadBackKeepsTheDatums) {
  ReconstructionResult result = GeoreferencedResult();
  result.enu_frame = EnuFrame{-33.8712345678901, 151.2098765432109, 42.125};
  result.enu_frame->heights = VerticalDatum::kEgm96;  // as when the geoid grid is missing
  result.enu_frame->output_heights = VerticalDatum::kEgm96;
  result.enu_frame->fixes_datum = VerticalDatum::kEgm96;
  const std::string dir = testing::MakeTempDir("georeference_datums");
  WriteGeoreferenceJson(result, dir + "/georeference.json");
  const std::optional<EnuFrame> frame = ReadEnuFrameFromGeoreferenceJson(dir + "/georeference.json");
  ASSERT_TRUE(frame.has_value());
  EXPECT_NEAR(frame->ref_latitude_deg, -33.8712345678901, 1e-10);  // 12 digits: 10 micrometres
  EXPECT_NEAR(frame->ref_longitude_deg, 151.2098765432109, 1e-9);
  EXPECT_EQ(frame->ref_altitude_m, 42.125);
  EXPECT_EQ(frame->heights, VerticalDatum::kEgm96);
  EXPECT_EQ(frame->output_heights, VerticalDatum::kEgm96);
  EXPECT_EQ(frame->fixes_datum, VerticalDatum::kEgm96);
}

TEST(GeoreferencedOutputs, FrameReadBackOfNoOrABadFile) {
  const std::string dir = testing::MakeTempDir("georeference_bad");
  // A model without GPS: its report's object says so.
  ReconstructionResult result = GeoreferencedResult();
  result.enu_frame.reset();
  {
    std::ofstream out(dir + "/none.json");
    WriteGeoreferenceObject(result, "", out);
  }
  EXPECT_FALSE(ReadEnuFrameFromGeoreferenceJson(dir + "/none.json").has_value());
  const std::string path = dir + "/georeference.json";
  for (const char* text : {"", "{\"georeferenced\": true}", "{\"georeferenced\": tru}",
                           "{\"georeferenced\": true, \"enu_origin_wgs84\": {\"latitude_deg\": 1}, "
                           "\"gps_altitude_datum\": \"EGM96 height\"}",
                           "{\"georeferenced\": true, \"enu_origin_wgs84\": {\"latitude_deg\": 1, "
                           "\"longitude_deg\": 2, \"altitude_m\": 3, \"height_datum\": \"feet\"}, "
                           "\"gps_altitude_datum\": \"EGM96 height\"}",
                           "{\"georeferenced\": true, \"enu_origin_wgs84\": {\"latitude_deg\": 91, "
                           "\"longitude_deg\": 2, \"altitude_m\": 3, \"height_datum\": \"EGM96 height\"}, "
                           "\"gps_altitude_datum\": \"EGM96 height\"}",
                           "{\"georeferenced\": false} trailing"}) {
    std::ofstream(path) << text;
    try {
      ReadEnuFrameFromGeoreferenceJson(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& error) {
      EXPECT_THAT(error.what(), HasSubstr(path));
    }
  }
  EXPECT_THROW(ReadEnuFrameFromGeoreferenceJson(dir + "/absent.json"), InputError);
}

TEST(GeoreferencedOutputs, ModelWithoutGpsSaysSoAndWritesNone) {
  ReconstructionResult result = GeoreferencedResult();
  const std::string dir = testing::MakeTempDir("not_georeferenced");
  WriteReconstructionOutputs(result, RunDescription{"/data/drone", "cpu", "sfm"}, dir);
  ASSERT_TRUE(std::filesystem::exists(dir + "/points.las"));
  result.enu_frame.reset();
  result.scene.position_priors.clear();
  result.mapper.georeference = PriorAlignment();
  EXPECT_FALSE(IsGeoreferenced(result));
  WriteReconstructionOutputs(result, RunDescription{"/data/drone", "cpu", "sfm"}, dir);
  EXPECT_THAT(testing::ReadTextFile(dir + "/report.json"),
              HasSubstr("\"georeference\": {\"georeferenced\": false, \"reason\": \"no image has"));
  for (const std::string& name : GeoreferencedOutputNames()) {
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + name)) << name << " of the earlier run is left";
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/points.ply"));
}

}  // namespace
}  // namespace proj
