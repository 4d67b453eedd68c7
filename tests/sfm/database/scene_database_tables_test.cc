// Pose priors and our tables round trip; deletions reach every table; transactions commit
// or roll back; a read-only database refuses writes; corrupt blobs are InputErrors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sfm/database/scene_database.h"
#include "tests/sfm/database/database_test_util.h"

namespace proj {
namespace {

using ::testing::HasSubstr;
using testing::InputErrorOf;
using testing::RawDatabase;
using testing::TempDatabasePath;
using Mode = SceneDatabase::Mode;

TEST(SceneDatabaseTables, PosePriorRoundTrip) {
  const std::string path = TempDatabasePath("pose_prior");
  PosePrior prior;
  prior.position = Eigen::Vector3d(47.37, 8.54, 408.5);
  prior.position_covariance = Eigen::Vector3d(1e-10, 2e-10, 4.0).asDiagonal();
  prior.coordinate_system = PosePrior::CoordinateSystem::kWgs84;
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 2);
    database.WritePosePrior(2, prior);
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_FALSE(database.ReadPosePrior(1));
  const std::optional<PosePrior> read = database.ReadPosePrior(2);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->position, prior.position);
  EXPECT_EQ(read->position_covariance, prior.position_covariance);
  EXPECT_EQ(read->coordinate_system, PosePrior::CoordinateSystem::kWgs84);
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT coordinate_system FROM pose_priors WHERE image_id = 2;"), 0);
}

TEST(SceneDatabaseTables, EnuFrameAndPosePriorDeletion) {
  const std::string path = TempDatabasePath("enu_frame");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 2);
    EXPECT_FALSE(database.ReadEnuFrame());
    database.WriteEnuFrame(EnuFrame{46.84, -91.99, 198.3});
    database.WriteEnuFrame(EnuFrame{46.85, -91.98, 200.5});  // replaces the row
    database.WritePosePrior(1, PosePrior());
    database.WritePosePrior(2, PosePrior());
    database.DeletePosePrior(1);
  }
  {
    SceneDatabase database(path, Mode::kReadOnly);
    const std::optional<EnuFrame> frame = database.ReadEnuFrame();
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->ref_latitude_deg, 46.85);
    EXPECT_EQ(frame->ref_longitude_deg, -91.98);
    EXPECT_EQ(frame->ref_altitude_m, 200.5);
    EXPECT_FALSE(database.ReadPosePrior(1));
    EXPECT_TRUE(database.ReadPosePrior(2));
    EXPECT_THROW(database.DeleteEnuFrame(), InputError);  // read-only
  }
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT COUNT(*) FROM proj_enu_frame;"), 1);
  SceneDatabase database(path, Mode::kReadWrite);
  database.DeleteEnuFrame();
  EXPECT_FALSE(database.ReadEnuFrame());
}

TEST(SceneDatabaseTables, EnuFrameDatumsAndImageCaptureRoundTrip) {
  const std::string path = TempDatabasePath("enu_datums");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 3);
    EnuFrame frame{46.84, -91.99, 169.8};
    frame.heights = VerticalDatum::kEllipsoid;
    frame.output_heights = VerticalDatum::kEgm96;
    database.WriteEnuFrame(frame);
    database.WriteImageCapture(1, ImageCapture{1466699519.25, VerticalDatum::kEgm96});
    database.WriteImageCapture(2, ImageCapture{std::nullopt, VerticalDatum::kEllipsoid});
  }
  {
    SceneDatabase database(path, Mode::kReadOnly);
    const EnuFrame frame = *database.ReadEnuFrame();
    EXPECT_EQ(frame.heights, VerticalDatum::kEllipsoid);
    EXPECT_EQ(frame.output_heights, VerticalDatum::kEgm96);
    EXPECT_FALSE(frame.fixes_datum);
    EXPECT_EQ(database.ReadImageCapture(1).time_s, 1466699519.25);
    EXPECT_EQ(database.ReadImageCapture(1).altitude_datum, VerticalDatum::kEgm96);
    EXPECT_FALSE(database.ReadImageCapture(2).time_s);
    EXPECT_EQ(database.ReadImageCapture(2).altitude_datum, VerticalDatum::kEllipsoid);
    EXPECT_FALSE(database.ReadImageCapture(3).time_s);  // none written
    EXPECT_FALSE(database.ReadImageCapture(3).altitude_datum);
  }
  {
    SceneDatabase database(path, Mode::kReadWrite);
    EnuFrame imposed{46.84, -91.99, 198.5};
    imposed.fixes_datum = VerticalDatum::kEllipsoid;
    database.WriteEnuFrame(imposed);
    EXPECT_EQ(database.ReadEnuFrame()->fixes_datum, VerticalDatum::kEllipsoid);
    database.DeleteImage(1);  // its capture row goes with it
  }
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT COUNT(*) FROM proj_image_capture;"), 1);
  raw.Exec("UPDATE proj_enu_frame SET output_datum = 'msl';");
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_THAT(InputErrorOf([&] { database.ReadEnuFrame(); }), HasSubstr("output_datum 'msl'"));
}

// A database written before the datums were recorded: its frame used EXIF altitudes as they
// were, so it reads as EGM96 heights in and out, read-only or after the columns are added.
TEST(SceneDatabaseTables, EnuFrameWithoutDatumColumnsReadsAsSeaLevel) {
  const std::string path = TempDatabasePath("enu_old");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    database.WriteEnuFrame(EnuFrame{46.84, -91.99, 198.3});
  }
  {
    RawDatabase raw(path);
    raw.Exec("DROP TABLE proj_enu_frame;");
    raw.Exec("CREATE TABLE proj_enu_frame (id INTEGER PRIMARY KEY NOT NULL CHECK(id = 0), "
             "latitude_deg REAL NOT NULL, longitude_deg REAL NOT NULL, altitude_m REAL NOT NULL);");
    raw.Exec("INSERT INTO proj_enu_frame VALUES (0, 46.84, -91.99, 198.3);");
  }
  for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite, Mode::kReadOnly}) {
    SceneDatabase database(path, mode);
    const EnuFrame frame = *database.ReadEnuFrame();
    EXPECT_EQ(frame.ref_altitude_m, 198.3);
    EXPECT_EQ(frame.heights, VerticalDatum::kEgm96);
    EXPECT_EQ(frame.output_heights, VerticalDatum::kEgm96);
    EXPECT_FALSE(frame.fixes_datum);
  }
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryText("SELECT heights_datum FROM proj_enu_frame;"), "egm96");
}

TEST(SceneDatabaseTables, ImageFileInfoAndKltCountRoundTrip) {
  const std::string path = TempDatabasePath("image_files");
  ImageFileInfo with_focal;
  with_focal.file_size = 5'123'456'789;
  with_focal.modification_time_ns = 1'700'000'000'123'456'789;
  with_focal.width = 4000;
  with_focal.height = 3000;
  with_focal.exif_focal_px = 3123.25;
  with_focal.camera_label = "DJI FC6310";
  ImageFileInfo without_focal = with_focal;
  without_focal.exif_focal_px.reset();
  without_focal.camera_label = "";
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 3);
    database.WriteImageFileInfo(1, with_focal);
    database.WriteImageFileInfo(2, without_focal);
    database.WriteKltPointCount(1, 120);
    database.WriteKltPointCount(1, 150);  // replaces
    EXPECT_THAT(InputErrorOf([&] { database.WriteKltPointCount(2, -1); }),
                HasSubstr("negative"));
  }
  SceneDatabase database(path, Mode::kReadOnly);
  const std::optional<ImageFileInfo> first = database.ReadImageFileInfo(1);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->file_size, with_focal.file_size);
  EXPECT_EQ(first->modification_time_ns, with_focal.modification_time_ns);
  EXPECT_EQ(first->width, 4000);
  EXPECT_EQ(first->height, 3000);
  EXPECT_EQ(first->exif_focal_px, with_focal.exif_focal_px);
  EXPECT_EQ(first->camera_label, "DJI FC6310");
  const std::optional<ImageFileInfo> second = database.ReadImageFileInfo(2);
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->exif_focal_px);
  EXPECT_EQ(second->camera_label, "");
  EXPECT_FALSE(database.ReadImageFileInfo(3));
  EXPECT_EQ(database.ReadKltPointCount(1), 150);
  EXPECT_FALSE(database.ReadKltPointCount(2));
}

TEST(SceneDatabaseTables, SkippedFilesReplaceTheList) {
  const std::string path = TempDatabasePath("skipped_files");
  SceneDatabase database(path, Mode::kReadWrite);
  database.WriteSkippedFiles({{"z.jpg", "not an image", 10, 20}, {"a.png", "truncated", 30, 40}});
  std::vector<SkippedFile> files = database.ReadSkippedFiles();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].name, "a.png");  // by name
  EXPECT_EQ(files[0].reason, "truncated");
  EXPECT_EQ(files[0].file_size, 30);
  EXPECT_EQ(files[0].modification_time_ns, 40);
  EXPECT_EQ(files[1].name, "z.jpg");
  database.WriteSkippedFiles({{"m.jpg", "unreadable EXIF", 1, 2}});
  files = database.ReadSkippedFiles();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "m.jpg");
  database.WriteSkippedFiles({});
  EXPECT_TRUE(database.ReadSkippedFiles().empty());
}

TEST(SceneDatabaseTables, StageOptionsRoundTrip) {
  const std::string path = TempDatabasePath("stage_options");
  const std::string options = "sift.peak_threshold=0.0067\nsift.max_features=8192\n";
  {
    SceneDatabase database(path, Mode::kReadWrite);
    EXPECT_FALSE(database.ReadStageOptions("extraction"));
    database.WriteStageOptions("extraction", "old");
    database.WriteStageOptions("extraction", options);
    database.WriteStageOptions("matching", "matcher=exhaustive");
    database.DeleteStageOptions("matching");
    database.DeleteStageOptions("never written");
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.ReadStageOptions("extraction"), options);
  EXPECT_FALSE(database.ReadStageOptions("matching"));
}

// Four images, every table filled for image 2 and its pairs with images 1, 3 and 4; the
// pair (1, 3) does not involve it.
void FillAroundImage2(SceneDatabase* database) {
  testing::AddImages(database, 4);
  for (int image_id = 1; image_id <= 4; ++image_id) {
    database->WriteKeypoints(image_id, testing::MakeKeypoints(20, image_id));
    database->WriteDescriptors(image_id, testing::MakeDescriptors(20, image_id));
  }
  for (const auto& [id1, id2] : std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {4, 2}, {1, 3}}) {
    database->WriteMatches(id1, id2, testing::MakeMatches(10, id1 + id2));
    database->WriteTwoViewGeometry(id1, id2, testing::MakeGeometry(id1 * id2));
  }
  database->WritePosePrior(2, PosePrior());
  database->WriteImageFileInfo(2, ImageFileInfo());
  database->WriteKltPointCount(2, 5);
}

TEST(SceneDatabaseTables, DeleteImageRemovesEveryRowOfIt) {
  const std::string path = TempDatabasePath("delete_image");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    FillAroundImage2(&database);
    database.DeleteImage(2);
    database.DeleteImage(99);  // nothing to delete
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.NumImages(), 3);
  EXPECT_FALSE(database.FindImage("1.jpg"));  // image 2 was named 1.jpg
  EXPECT_FALSE(database.HasKeypoints(2));
  EXPECT_TRUE(database.ReadDescriptors(2).empty());
  EXPECT_FALSE(database.ReadPosePrior(2));
  EXPECT_FALSE(database.ReadImageFileInfo(2));
  EXPECT_FALSE(database.ReadKltPointCount(2));
  const std::vector<int64_t> remaining = {PairIdFromImageIds(1, 3)};
  EXPECT_EQ(database.ReadMatchedPairIds(), remaining);
  EXPECT_EQ(database.ReadVerifiedPairIds(), remaining);
  EXPECT_TRUE(database.HasKeypoints(1));
  EXPECT_TRUE(database.HasKeypoints(4));
  EXPECT_EQ(database.NumKeypoints(), 60);
  RawDatabase raw(path);
  for (const char* table : {"keypoints", "descriptors", "pose_priors", "proj_image_files",
                            "proj_klt_images", "images"}) {
    EXPECT_EQ(raw.QueryInt(std::string("SELECT COUNT(*) FROM ") + table + " WHERE image_id = 2;"),
              0) << table;
  }
}

TEST(SceneDatabaseTables, DeleteFeaturesKeepsTheImage) {
  const std::string path = TempDatabasePath("delete_features");
  SceneDatabase database(path, Mode::kReadWrite);
  FillAroundImage2(&database);
  database.DeleteFeatures(2);
  EXPECT_EQ(database.NumImages(), 4);
  EXPECT_TRUE(database.FindImage("1.jpg"));
  EXPECT_FALSE(database.HasKeypoints(2));
  EXPECT_TRUE(database.ReadDescriptors(2).empty());
  EXPECT_FALSE(database.ReadKltPointCount(2));
  EXPECT_TRUE(database.ReadPosePrior(2));
  EXPECT_TRUE(database.ReadImageFileInfo(2));
  const std::vector<int64_t> remaining = {PairIdFromImageIds(1, 3)};
  EXPECT_EQ(database.ReadMatchedPairIds(), remaining);
  EXPECT_EQ(database.ReadVerifiedPairIds(), remaining);
}

TEST(SceneDatabaseTables, TransactionWithoutCommitRollsBack) {
  const std::string path = TempDatabasePath("rollback");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 1);  // autocommit, outside a transaction
    {
      SceneDatabase::Transaction transaction(&database);
      database.AddImage("rolled_back.jpg", 1);
      database.WriteKeypoints(1, testing::MakeKeypoints(5, 1));
      EXPECT_TRUE(database.FindImage("rolled_back.jpg"));  // visible inside
    }
    EXPECT_FALSE(database.FindImage("rolled_back.jpg"));
    EXPECT_FALSE(database.HasKeypoints(1));
    {
      SceneDatabase::Transaction transaction(&database);
      database.AddImage("committed.jpg", 1);
      transaction.Commit();
    }
    {
      // An exception inside a transaction: its writes go too.
      EXPECT_THROW(
          {
            SceneDatabase::Transaction transaction(&database);
            database.AddImage("before_error.jpg", 1);
            database.AddImage("before_error.jpg", 1);
            transaction.Commit();
          },
          InputError);
    }
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_TRUE(database.FindImage("0.jpg"));
  EXPECT_FALSE(database.FindImage("rolled_back.jpg"));
  EXPECT_FALSE(database.FindImage("before_error.jpg"));
  EXPECT_TRUE(database.FindImage("committed.jpg"));
  EXPECT_FALSE(database.HasKeypoints(1));
  EXPECT_EQ(database.NumImages(), 2);
}

TEST(SceneDatabaseTables, ReadOnlyDatabaseRefusesWrites) {
  const std::string path = TempDatabasePath("read_only_writes");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 1);
  }
  SceneDatabase database(path, Mode::kReadOnly);
  const std::string error = InputErrorOf([&] { database.AddImage("new.jpg", 1); });
  EXPECT_THAT(error, HasSubstr("opened read-only"));
  EXPECT_THAT(error, HasSubstr(path));
  EXPECT_THAT(InputErrorOf([&] { database.WriteStageOptions("a", "b"); }),
              HasSubstr("opened read-only"));
  EXPECT_THAT(InputErrorOf([&] { SceneDatabase::Transaction transaction(&database); }),
              HasSubstr("opened read-only"));
  EXPECT_EQ(database.NumImages(), 1);
}

// Overwrites one column of a row with raw SQL and expects `read` to name the file, table
// and row.
void ExpectCorruptRowError(const std::string& path, const std::string& sql,
                           const std::function<void(const SceneDatabase&)>& read,
                           const std::string& table, const std::string& row) {
  RawDatabase(path).Exec(sql);
  SceneDatabase database(path, Mode::kReadOnly);
  const std::string error = InputErrorOf([&] { read(database); });
  EXPECT_THAT(error, HasSubstr(path)) << sql;
  EXPECT_THAT(error, HasSubstr("corrupt row in table " + table)) << sql;
  EXPECT_THAT(error, HasSubstr(row)) << sql;
}

TEST(SceneDatabaseTables, CorruptBlobsAreInputErrors) {
  const std::string path = TempDatabasePath("corrupt_blobs");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    FillAroundImage2(&database);
  }
  const std::string pair = std::to_string(PairIdFromImageIds(1, 2));
  ExpectCorruptRowError(path, "UPDATE keypoints SET rows = 21 WHERE image_id = 1;",
                        [](const SceneDatabase& d) { d.ReadKeypoints(1); }, "keypoints",
                        "image_id 1");
  ExpectCorruptRowError(path, "UPDATE keypoints SET rows = 24, cols = 5 WHERE image_id = 3;",
                        [](const SceneDatabase& d) { d.ReadKeypoints(3); }, "keypoints",
                        "image_id 3");
  ExpectCorruptRowError(path, "UPDATE descriptors SET rows = 40, cols = 64 WHERE image_id = 1;",
                        [](const SceneDatabase& d) { d.ReadDescriptors(1); }, "descriptors",
                        "image_id 1");
  ExpectCorruptRowError(path, "UPDATE matches SET data = x'0102' WHERE pair_id = " + pair,
                        [](const SceneDatabase& d) { d.ReadMatches(2, 1); }, "matches",
                        "images 1 and 2");
  ExpectCorruptRowError(path, "UPDATE two_view_geometries SET F = zeroblob(71) WHERE pair_id = " + pair,
                        [](const SceneDatabase& d) { d.ReadTwoViewGeometries(); },
                        "two_view_geometries", "pair_id " + pair);
  ExpectCorruptRowError(path, "UPDATE two_view_geometries SET config = 42 WHERE pair_id = " + pair,
                        [](const SceneDatabase& d) { d.ReadTwoViewGeometry(1, 2); },
                        "two_view_geometries", "pair_id " + pair);
  ExpectCorruptRowError(path, "UPDATE cameras SET params = zeroblob(8);",
                        [](const SceneDatabase& d) { d.ReadCameras(); }, "cameras",
                        "camera_id 1");
  ExpectCorruptRowError(path, "UPDATE pose_priors SET position = zeroblob(16);",
                        [](const SceneDatabase& d) { d.ReadPosePrior(2); }, "pose_priors",
                        "image_id 2");
}

// Row and column counts come from the file: multiplying them (or cols by the element size)
// overflowed for cols near 2^62, undefined behaviour that the sanitizer build
// (scripts/test_sanitizers.sh) reports. Invalid counts are a corrupt row; zero rows of any
// width are an empty list.
TEST(SceneDatabaseTables, HugeBlobColumnCountsAreCheckedWithoutOverflow) {
  const std::string path = TempDatabasePath("huge_blob_counts");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    FillAroundImage2(&database);
  }
  ExpectCorruptRowError(path,
                        "UPDATE keypoints SET rows = -1, cols = 4611686018427387904 "
                        "WHERE image_id = 1;",
                        [](const SceneDatabase& d) { d.ReadKeypoints(1); }, "keypoints",
                        "image_id 1");
  RawDatabase(path).Exec("UPDATE keypoints SET rows = 0, cols = 4611686018427387904, data = x'' "
                         "WHERE image_id = 3;");
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_TRUE(database.ReadKeypoints(3).empty());
}

}  // namespace
}  // namespace proj
