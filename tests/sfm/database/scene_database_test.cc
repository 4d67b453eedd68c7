// Round trips of every table and field of the scene database, COLMAP's encodings checked
// on the raw rows, and the pair conventions.
#include "sfm/database/scene_database.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/sfm/database/database_test_util.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;
using testing::InputErrorOf;
using testing::RawDatabase;
using testing::TempDatabasePath;

constexpr double kTwoPi = 6.283185307179586;

// The difference of two angles, in [0, pi].
double AngleDistance(double a, double b) {
  const double d = std::fmod(std::abs(a - b), kTwoPi);
  return std::min(d, kTwoPi - d);
}

TEST(PairId, MatchesColmapFormula) {
  EXPECT_EQ(PairIdFromImageIds(1, 2), 2147483649);
  EXPECT_EQ(PairIdFromImageIds(2, 1), 2147483649);
  EXPECT_EQ(PairIdFromImageIds(7, 3), 3 * 2147483647LL + 7);
  EXPECT_EQ(PairIdFromImageIds(9999, 10000), 9999 * 2147483647LL + 10000);
  EXPECT_EQ(ImageIdsFromPairId(2147483649), std::make_pair(1, 2));
  EXPECT_EQ(ImageIdsFromPairId(PairIdFromImageIds(10000, 9999)), std::make_pair(9999, 10000));
  EXPECT_THAT(InputErrorOf([] { PairIdFromImageIds(-1, 2); }), HasSubstr("negative"));
}

TEST(SceneDatabase, CreatesColmapTablesAndOurs) {
  const std::string path = TempDatabasePath("creates_tables");
  { SceneDatabase database(path, SceneDatabase::Mode::kReadWrite); }
  RawDatabase raw(path);
  for (const char* table : {"cameras", "images", "keypoints", "descriptors", "matches",
                            "two_view_geometries", "pose_priors", "proj_image_files",
                            "proj_skipped_files", "proj_stage_options", "proj_klt_images",
                            "proj_enu_frame", "proj_image_capture"}) {
    EXPECT_EQ(raw.QueryInt(std::string("SELECT COUNT(*) FROM sqlite_master WHERE type = "
                                       "'table' AND name = '") + table + "';"), 1) << table;
  }
  const std::string images_sql =
      raw.QueryText("SELECT sql FROM sqlite_master WHERE name = 'images';");
  EXPECT_THAT(images_sql, HasSubstr("prior_tz REAL"));
  EXPECT_THAT(images_sql, HasSubstr("CHECK(image_id >= 0 and image_id < 2147483647)"));
  EXPECT_EQ(raw.QueryInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND "
                         "name = 'index_name';"), 1);
  EXPECT_THAT(raw.QueryText("SELECT sql FROM sqlite_master WHERE name = 'two_view_geometries';"),
              HasSubstr("tvec BLOB"));
}

TEST(SceneDatabase, CamerasOfEveryModelRoundTrip) {
  const std::string path = TempDatabasePath("cameras");
  Camera pinhole{CameraModelId::kPinhole, 640, 480, {500, 510, 320, 240}};
  Camera simple_radial{CameraModelId::kSimpleRadial, 1920, 1080, {1500, 960, 540, 0.01}};
  Camera radial{CameraModelId::kRadial, 4000, 3000, {3000, 2000, 1500, -0.02, 0.003}};
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    EXPECT_EQ(database.AddCamera(pinhole, true), 1);
    EXPECT_EQ(database.AddCamera(simple_radial, false), 2);
    EXPECT_EQ(database.AddCamera(pinhole, false), 3);
    database.UpdateCamera(3, radial, true);
    EXPECT_EQ(database.NumCameras(), 3);
    EXPECT_THAT(InputErrorOf([&] { database.UpdateCamera(9, radial, true); }),
                HasSubstr("no such camera"));
    Camera wrong = pinhole;
    wrong.params.pop_back();
    EXPECT_THAT(InputErrorOf([&] { database.AddCamera(wrong, true); }),
                HasSubstr("needs 4 parameters"));
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  const std::vector<DatabaseCamera> cameras = database.ReadCameras();
  ASSERT_EQ(cameras.size(), 3u);
  const Camera* expected[] = {&pinhole, &simple_radial, &radial};
  const bool expected_prior[] = {true, false, true};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(cameras[i].camera_id, i + 1);
    EXPECT_EQ(cameras[i].camera.model, expected[i]->model);
    EXPECT_EQ(cameras[i].camera.width, expected[i]->width);
    EXPECT_EQ(cameras[i].camera.height, expected[i]->height);
    EXPECT_EQ(cameras[i].camera.params, expected[i]->params);
    EXPECT_EQ(cameras[i].prior_focal_length, expected_prior[i]);
  }
  // COLMAP's model ids in the file: PINHOLE 1, SIMPLE_RADIAL 2, RADIAL 3.
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryText("SELECT group_concat(model, ',') FROM "
                          "(SELECT model FROM cameras ORDER BY camera_id);"), "1,2,3");
}

// The same camera as the COLMAP model readers make of it (one table,
// geometry/camera/colmap_camera_models.h); the binary reader: tests/sfm/reconstruction_io.
TEST(SceneDatabase, ReadsColmapSimplePinholeAsPinhole) {
  const std::string path = TempDatabasePath("simple_pinhole");
  { SceneDatabase database(path, SceneDatabase::Mode::kReadWrite); }
  const double params[] = {800, 400, 300};  // f, cx, cy
  RawDatabase(path).Exec("INSERT INTO cameras(model, width, height, params, prior_focal_length) "
                         "VALUES(0, 800, 600, " + testing::SqlBlob(params, sizeof(params)) +
                         ", 1);");
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  const std::vector<DatabaseCamera> cameras = database.ReadCameras();
  ASSERT_EQ(cameras.size(), 1u);
  EXPECT_EQ(cameras[0].camera.model, CameraModelId::kPinhole);
  EXPECT_EQ(cameras[0].camera.params, (std::vector<double>{800, 800, 400, 300}));
  EXPECT_TRUE(cameras[0].prior_focal_length);

  const std::string model = testing::MakeTempDir("simple_pinhole_text");
  std::ofstream(model + "/cameras.txt") << "1 SIMPLE_PINHOLE 800 600 800 400 300\n";
  std::ofstream(model + "/images.txt");
  std::ofstream(model + "/points3D.txt");
  const Camera from_text = ReadColmapText(model).cameras.at(0);
  EXPECT_EQ(from_text.model, cameras[0].camera.model);
  EXPECT_EQ(from_text.width, cameras[0].camera.width);
  EXPECT_EQ(from_text.height, cameras[0].camera.height);
  EXPECT_EQ(from_text.params, cameras[0].camera.params);
}

TEST(SceneDatabase, UnsupportedColmapCameraModelIsInputError) {
  const std::string path = TempDatabasePath("opencv_model");
  { SceneDatabase database(path, SceneDatabase::Mode::kReadWrite); }
  RawDatabase(path).Exec("INSERT INTO cameras(model, width, height, params, prior_focal_length) "
                         "VALUES(4, 800, 600, zeroblob(64), 0);");
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  const std::string error = InputErrorOf([&] { database.ReadCameras(); });
  EXPECT_THAT(error, HasSubstr("OPENCV"));
  EXPECT_THAT(error, HasSubstr(path));
}

TEST(SceneDatabase, ImagesRoundTrip) {
  const std::string path = TempDatabasePath("images");
  const Camera camera = Camera::FromFocal(CameraModelId::kSimpleRadial, 640, 480, 500);
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    const int camera1 = database.AddCamera(camera, false);
    const int camera2 = database.AddCamera(camera, true);
    EXPECT_EQ(database.AddImage("b.jpg", camera1), 1);
    EXPECT_EQ(database.AddImage("sub/a.jpg", camera1), 2);
    database.SetImageCamera(2, camera2);
    EXPECT_THAT(InputErrorOf([&] { database.SetImageCamera(2, 77); }),
                HasSubstr("no such camera"));
    EXPECT_THAT(InputErrorOf([&] { database.SetImageCamera(42, camera1); }),
                HasSubstr("no such image"));
    EXPECT_THAT(InputErrorOf([&] { database.AddImage("c.jpg", 77); }), HasSubstr("no camera 77"));
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  EXPECT_EQ(database.NumImages(), 2);
  const std::vector<DatabaseImage> images = database.ReadImages();
  ASSERT_EQ(images.size(), 2u);
  EXPECT_EQ(images[0].image_id, 1);
  EXPECT_EQ(images[0].name, "b.jpg");
  EXPECT_EQ(images[0].camera_id, 1);
  EXPECT_EQ(images[1].name, "sub/a.jpg");
  EXPECT_EQ(images[1].camera_id, 2);
  const std::optional<DatabaseImage> found = database.FindImage("sub/a.jpg");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->image_id, 2);
  EXPECT_FALSE(database.FindImage("missing.jpg"));
  // The COLMAP prior columns stay NULL.
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT COUNT(*) FROM images WHERE prior_qw IS NULL AND "
                         "prior_tz IS NULL;"), 2);
}

TEST(SceneDatabase, AddImageWithExistingNameThrows) {
  const std::string path = TempDatabasePath("duplicate_name");
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  const int camera = database.AddCamera(Camera::FromFocal(CameraModelId::kPinhole, 10, 10, 9), false);
  database.AddImage("a.jpg", camera);
  const std::string error = InputErrorOf([&] { database.AddImage("a.jpg", camera); });
  EXPECT_THAT(error, HasSubstr("already has an image of that name"));
  EXPECT_THAT(error, HasSubstr(path));
  EXPECT_EQ(database.NumImages(), 1);
}

TEST(SceneDatabase, DeleteUnusedCamerasKeepsUsedOnes) {
  const std::string path = TempDatabasePath("unused_cameras");
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  const Camera camera = Camera::FromFocal(CameraModelId::kPinhole, 10, 10, 9);
  database.AddCamera(camera, false);
  const int used = database.AddCamera(camera, false);
  database.AddCamera(camera, false);
  database.AddImage("a.jpg", used);
  database.DeleteUnusedCameras();
  const std::vector<DatabaseCamera> cameras = database.ReadCameras();
  ASSERT_EQ(cameras.size(), 1u);
  EXPECT_EQ(cameras[0].camera_id, used);
}

TEST(SceneDatabase, KeypointsRoundTripWithScaleAndOrientation) {
  const std::string path = TempDatabasePath("keypoints");
  std::vector<Keypoint> keypoints = testing::MakeKeypoints(500, 1);
  keypoints[0].orientation = 0.0f;
  keypoints[1].orientation = 6.2831f;  // just below 2 pi
  keypoints[2].orientation = 3.14159265f;
  keypoints[3].response = 0.5f;  // not stored
  keypoints[3].octave = 2;
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 2);
    database.WriteKeypoints(1, keypoints);
    database.WriteKeypoints(2, {});
    EXPECT_THAT(InputErrorOf([&] { database.WriteKeypoints(9, keypoints); }),
                HasSubstr("image 9"));
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  EXPECT_TRUE(database.HasKeypoints(1));
  EXPECT_TRUE(database.HasKeypoints(2));  // extracted, none found
  EXPECT_FALSE(database.HasKeypoints(3));
  EXPECT_TRUE(database.ReadKeypoints(2).empty());
  EXPECT_TRUE(database.ReadKeypoints(3).empty());
  EXPECT_EQ(database.NumKeypoints(), 500);
  const std::vector<Keypoint> read = database.ReadKeypoints(1);
  ASSERT_EQ(read.size(), keypoints.size());
  for (size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].x, keypoints[i].x) << i;
    EXPECT_EQ(read[i].y, keypoints[i].y) << i;
    EXPECT_NEAR(read[i].scale, keypoints[i].scale, 1e-5 * keypoints[i].scale) << i;
    EXPECT_LT(AngleDistance(read[i].orientation, keypoints[i].orientation), 1e-5) << i;
    EXPECT_GE(read[i].orientation, 0.0f) << i;
    EXPECT_LT(read[i].orientation, static_cast<float>(kTwoPi)) << i;
  }
  EXPECT_EQ(read[3].response, 0.0f);
  EXPECT_EQ(read[3].octave, 0);
  // COLMAP's layout: 6 float32 columns with the affine shape scale * [cos -sin; sin cos].
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT cols FROM keypoints WHERE image_id = 1;"), 6);
  EXPECT_EQ(raw.QueryInt("SELECT length(data) FROM keypoints WHERE image_id = 1;"), 500 * 6 * 4);
  EXPECT_EQ(raw.QueryInt("SELECT cols FROM keypoints WHERE image_id = 2;"), 6);
  EXPECT_EQ(raw.QueryText("SELECT typeof(data) FROM keypoints WHERE image_id = 2;"), "blob");
}

TEST(SceneDatabase, KeypointBlobFollowsColmapAffineShape) {
  const std::string path = TempDatabasePath("keypoint_shape");
  Keypoint keypoint;
  keypoint.x = 10.5f;
  keypoint.y = 20.5f;
  keypoint.scale = 2.0f;
  keypoint.orientation = 0.5f;
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 1);
    database.WriteKeypoints(1, {keypoint});
  }
  RawDatabase raw(path);
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw.handle(), "SELECT data FROM keypoints;", -1, &statement,
                               nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  ASSERT_EQ(sqlite3_column_bytes(statement, 0), 24);
  float values[6];
  std::memcpy(values, sqlite3_column_blob(statement, 0), sizeof(values));
  sqlite3_finalize(statement);
  EXPECT_EQ(values[0], 10.5f);
  EXPECT_EQ(values[1], 20.5f);
  EXPECT_NEAR(values[2], 2 * std::cos(0.5), 1e-6);   // a11
  EXPECT_NEAR(values[3], -2 * std::sin(0.5), 1e-6);  // a12
  EXPECT_NEAR(values[4], 2 * std::sin(0.5), 1e-6);   // a21
  EXPECT_NEAR(values[5], 2 * std::cos(0.5), 1e-6);   // a22
}

TEST(SceneDatabase, ReadsTwoAndFourColumnKeypoints) {
  const std::string path = TempDatabasePath("keypoint_columns");
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 2);
  }
  {
    RawDatabase raw(path);
    const float two[] = {1.5f, 2.5f, 3.5f, 4.5f};
    raw.InsertBlobRow("keypoints", "image_id", 1, 2, 2, two, sizeof(two));
    const float four[] = {1.5f, 2.5f, 3.0f, -0.5f, 7.0f, 8.0f, 1.25f, 7.0f};
    raw.InsertBlobRow("keypoints", "image_id", 2, 2, 4, four, sizeof(four));
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  const std::vector<Keypoint> two = database.ReadKeypoints(1);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].x, 3.5f);
  EXPECT_EQ(two[1].y, 4.5f);
  EXPECT_EQ(two[1].scale, 1.0f);  // COLMAP's unit shape
  EXPECT_EQ(two[1].orientation, 0.0f);
  const std::vector<Keypoint> four = database.ReadKeypoints(2);
  ASSERT_EQ(four.size(), 2u);
  EXPECT_EQ(four[0].x, 1.5f);
  EXPECT_EQ(four[0].scale, 3.0f);
  EXPECT_NEAR(four[0].orientation, kTwoPi - 0.5, 1e-5);  // wrapped into [0, 2 pi)
  EXPECT_EQ(four[1].y, 8.0f);
  EXPECT_EQ(four[1].scale, 1.25f);
  EXPECT_NEAR(four[1].orientation, 7.0 - kTwoPi, 1e-5);
}

TEST(SceneDatabase, DescriptorsRoundTripByteExact) {
  const std::string path = TempDatabasePath("descriptors");
  const std::vector<uint8_t> descriptors = testing::MakeDescriptors(300, 2);
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 2);
    database.WriteDescriptors(1, descriptors);
    database.WriteDescriptors(2, {});
    EXPECT_THAT(InputErrorOf([&] { database.WriteDescriptors(1, std::vector<uint8_t>(100)); }),
                HasSubstr("multiple of 128"));
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  EXPECT_EQ(database.ReadDescriptors(1), descriptors);
  EXPECT_TRUE(database.ReadDescriptors(2).empty());
  EXPECT_TRUE(database.ReadDescriptors(3).empty());
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryText("SELECT rows || 'x' || cols FROM descriptors WHERE image_id = 1;"),
            "300x128");
}

TEST(SceneDatabase, MatchesRoundTripInBothOrders) {
  const std::string path = TempDatabasePath("matches");
  const std::vector<FeatureMatch> matches13 = testing::MakeMatches(200, 3);
  const std::vector<FeatureMatch> matches32 = testing::MakeMatches(100, 4);
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 4);
    database.WriteMatches(1, 3, matches13);
    database.WriteMatches(3, 2, matches32);  // stored as (2, 3)
    database.WriteMatches(1, 4, {});
    EXPECT_THAT(InputErrorOf([&] { database.WriteMatches(2, 2, matches13); }),
                HasSubstr("two different"));
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  testing::ExpectMatchesEqual(*database.ReadMatches(1, 3), matches13);
  testing::ExpectMatchesEqual(*database.ReadMatches(3, 1), testing::SwappedMatches(matches13));
  testing::ExpectMatchesEqual(*database.ReadMatches(3, 2), matches32);
  testing::ExpectMatchesEqual(*database.ReadMatches(2, 3), testing::SwappedMatches(matches32));
  const std::optional<std::vector<FeatureMatch>> empty = database.ReadMatches(4, 1);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  EXPECT_FALSE(database.ReadMatches(1, 2));
  EXPECT_EQ(database.ReadMatchedPairIds(),
            (std::vector<int64_t>{PairIdFromImageIds(1, 3), PairIdFromImageIds(1, 4),
                                  PairIdFromImageIds(2, 3)}));
  // The stored row has image 2's indices first.
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT rows FROM matches WHERE pair_id = " +
                         std::to_string(PairIdFromImageIds(2, 3)) + ";"), 100);
  EXPECT_EQ(raw.QueryInt("SELECT cols FROM matches WHERE pair_id = " +
                         std::to_string(PairIdFromImageIds(2, 3)) + ";"), 2);
}

TEST(SceneDatabase, TwoViewGeometryRoundTripsInBothOrders) {
  const std::string path = TempDatabasePath("geometry");
  const TwoViewGeometry geometry12 = testing::MakeGeometry(5);
  TwoViewGeometry geometry31 = testing::MakeGeometry(6);
  geometry31.configuration = TwoViewConfiguration::kPlanar;
  TwoViewGeometry degenerate;
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 3);
    database.WriteTwoViewGeometry(1, 2, geometry12);
    database.WriteTwoViewGeometry(3, 1, geometry31);  // stored as (1, 3), inverted
    database.WriteTwoViewGeometry(2, 3, degenerate);
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  testing::ExpectGeometriesNear(*database.ReadTwoViewGeometry(1, 2), geometry12);
  testing::ExpectGeometriesNear(*database.ReadTwoViewGeometry(3, 1), geometry31);
  // Read the other way round: everything from image 2 to image 1.
  const TwoViewGeometry geometry21 = *database.ReadTwoViewGeometry(2, 1);
  testing::ExpectMatchesEqual(geometry21.inlier_matches, testing::SwappedMatches(geometry12.inlier_matches));
  EXPECT_LT((geometry21.F - geometry12.F.transpose()).norm(), 1e-12);
  EXPECT_LT((geometry21.E - geometry12.E.transpose()).norm(), 1e-12);
  EXPECT_LT((geometry21.H * geometry12.H - Eigen::Matrix3d::Identity()).norm(), 1e-9);
  ASSERT_TRUE(geometry21.has_relative_pose);
  const Rigid3d round = geometry21.cam2_from_cam1 * geometry12.cam2_from_cam1;
  EXPECT_LT(round.rotation.angularDistance(Eigen::Quaterniond::Identity()), 1e-12);
  EXPECT_LT(round.translation.norm(), 1e-12);
  const TwoViewGeometry read_degenerate = *database.ReadTwoViewGeometry(3, 2);
  EXPECT_EQ(read_degenerate.configuration, TwoViewConfiguration::kDegenerate);
  EXPECT_FALSE(read_degenerate.has_relative_pose);
  EXPECT_TRUE(read_degenerate.inlier_matches.empty());
  EXPECT_FALSE(database.ReadTwoViewGeometry(1, 4));

  // COLMAP's layout: row-major F, config 2 (CALIBRATED) and 4 (PLANAR), no pose as NULL.
  RawDatabase raw(path);
  const std::string pair12 = std::to_string(PairIdFromImageIds(1, 2));
  EXPECT_EQ(raw.QueryInt("SELECT config FROM two_view_geometries WHERE pair_id = " + pair12), 2);
  EXPECT_EQ(raw.QueryInt("SELECT config FROM two_view_geometries WHERE pair_id = " +
                         std::to_string(PairIdFromImageIds(1, 3))), 4);
  EXPECT_EQ(raw.QueryInt("SELECT qvec IS NULL AND tvec IS NULL FROM two_view_geometries "
                         "WHERE pair_id = " + std::to_string(PairIdFromImageIds(2, 3))), 1);
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw.handle(),
                               ("SELECT F, qvec FROM two_view_geometries WHERE pair_id = " +
                                pair12).c_str(), -1, &statement, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  double f[9], q[4];
  std::memcpy(f, sqlite3_column_blob(statement, 0), sizeof(f));
  std::memcpy(q, sqlite3_column_blob(statement, 1), sizeof(q));
  sqlite3_finalize(statement);
  EXPECT_EQ(f[1], geometry12.F(0, 1));  // row-major
  EXPECT_EQ(f[3], geometry12.F(1, 0));
  EXPECT_EQ(q[0], geometry12.cam2_from_cam1.rotation.w());  // w, x, y, z
  EXPECT_EQ(q[1], geometry12.cam2_from_cam1.rotation.x());
}

TEST(SceneDatabase, ReadsColmapConfigurationsAndPoseConventions) {
  const std::string path = TempDatabasePath("colmap_geometry");
  {
    SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
    testing::AddImages(&database, 6);
  }
  {
    // Rows as COLMAP 3.8 writes them: qvec/tvec always, (1,0,0,0)/(0,0,0) or zeros when it
    // estimated no pose; empty blobs for F, E, H without inliers.
    RawDatabase raw(path);
    const struct {
      int image_id2;
      int config;
      const char* qvec;
    } rows[] = {{2, 0, "x'000000000000f03f" "0000000000000000" "0000000000000000" "0000000000000000'"},
                {3, 6, "zeroblob(32)"},
                {4, 7, "zeroblob(32)"},
                {5, 8, "x''"},
                {6, 4, "NULL"}};
    for (const auto& row : rows) {
      raw.Exec("INSERT INTO two_view_geometries(pair_id, rows, cols, data, config, F, E, H, "
               "qvec, tvec) VALUES(" + std::to_string(PairIdFromImageIds(1, row.image_id2)) +
               ", 0, 2, x'', " + std::to_string(row.config) + ", x'', x'', x'', " + row.qvec +
               ", zeroblob(24));");
    }
  }
  SceneDatabase database(path, SceneDatabase::Mode::kReadOnly);
  const TwoViewConfiguration expected[] = {
      TwoViewConfiguration::kDegenerate, TwoViewConfiguration::kPlanar,
      TwoViewConfiguration::kUncalibrated, TwoViewConfiguration::kUncalibrated,
      TwoViewConfiguration::kPlanar};
  const auto geometries = database.ReadTwoViewGeometries();
  ASSERT_EQ(geometries.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(geometries[i].first, PairIdFromImageIds(1, i + 2));
    EXPECT_EQ(geometries[i].second.configuration, expected[i]) << i;
    EXPECT_FALSE(geometries[i].second.has_relative_pose) << i;
    EXPECT_TRUE(geometries[i].second.F.isZero(0)) << i;
  }
}

TEST(SceneDatabase, ListsAndDeletesTwoViewGeometries) {
  const std::string path = TempDatabasePath("geometry_list");
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  testing::AddImages(&database, 3);
  database.WriteTwoViewGeometry(3, 2, testing::MakeGeometry(7));
  database.WriteTwoViewGeometry(1, 2, testing::MakeGeometry(8));
  EXPECT_EQ(database.ReadVerifiedPairIds(),
            (std::vector<int64_t>{PairIdFromImageIds(1, 2), PairIdFromImageIds(2, 3)}));
  const auto geometries = database.ReadTwoViewGeometries();
  ASSERT_EQ(geometries.size(), 2u);
  EXPECT_EQ(geometries[0].first, PairIdFromImageIds(1, 2));
  testing::ExpectGeometriesNear(geometries[0].second, testing::MakeGeometry(8));
  // From the smaller to the larger id: the inverse of what was written for (3, 2).
  EXPECT_EQ(geometries[1].first, PairIdFromImageIds(2, 3));
  EXPECT_LT((geometries[1].second.F - testing::MakeGeometry(7).F.transpose()).norm(), 1e-12);
  testing::ExpectMatchesEqual(geometries[1].second.inlier_matches, testing::SwappedMatches(testing::MakeGeometry(7).inlier_matches));
  database.DeleteTwoViewGeometries();
  EXPECT_TRUE(database.ReadVerifiedPairIds().empty());
  EXPECT_FALSE(database.ReadTwoViewGeometry(1, 2));
}

}  // namespace
}  // namespace proj
