// Opening a scene database: every file that is not a usable scene database is an
// InputError naming the file and saying what it is; COLMAP 3.8 and 4 databases open.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "sfm/database/scene_database.h"
#include "tests/sfm/database/database_test_util.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::InputErrorOf;
using testing::RawDatabase;
using testing::TempDatabasePath;
using Mode = SceneDatabase::Mode;

std::string OpenError(const std::string& path, Mode mode) {
  return InputErrorOf([&] { SceneDatabase database(path, mode); });
}

TEST(SceneDatabaseOpen, MissingFileReadOnly) {
  const std::string path = TempDatabasePath("missing") ;
  const std::string error = OpenError(path, Mode::kReadOnly);
  EXPECT_THAT(error, HasSubstr("scene database '" + path + "' does not exist"));
  EXPECT_FALSE(fs::exists(path));
}

TEST(SceneDatabaseOpen, MissingFolderReadWrite) {
  const std::string path = TempDatabasePath("missing_folder") + ".d/no/scene.db";
  EXPECT_THAT(OpenError(path, Mode::kReadWrite), HasSubstr("does not exist"));
}

TEST(SceneDatabaseOpen, DirectoryAsPath) {
  const std::string path = testing::MakeTempDir("scene_database/directory");
  for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite}) {
    const std::string error = OpenError(path, mode);
    EXPECT_THAT(error, HasSubstr("'" + path + "' is a directory"));
  }
}

TEST(SceneDatabaseOpen, FilesThatAreNotSqlite) {
  const std::string folder = testing::MakeTempDir("scene_database/not_sqlite");
  const std::string jpeg_start("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01", 18);
  const std::pair<std::string, std::string> files[] = {
      {folder + "/notes.txt", "camera 1: 4000 x 3000\nimages: 120\n"},
      {folder + "/photo.jpg", jpeg_start + std::string(4000, '\x5a')},
      {folder + "/short.db", "SQLite"},  // shorter than any header
  };
  for (const auto& [path, bytes] : files) {
    testing::WriteFileBytes(path, bytes);
    for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite}) {
      const std::string error = OpenError(path, mode);
      EXPECT_THAT(error, HasSubstr("scene database '" + path + "' is not an SQLite database"));
      EXPECT_EQ(testing::ReadFileBytes(path), bytes) << "the file must stay as it was";
    }
  }
  // The magic string with nothing after it: the header itself is cut.
  const std::string cut = folder + "/cut.db";
  testing::WriteFileBytes(cut, std::string("SQLite format 3\0\x10\x00", 18));
  EXPECT_THAT(OpenError(cut, Mode::kReadOnly), HasSubstr("is truncated"));
}

TEST(SceneDatabaseOpen, EmptyFile) {
  const std::string path = TempDatabasePath("empty_file");
  testing::WriteFileBytes(path, "");
  EXPECT_THAT(OpenError(path, Mode::kReadOnly), HasSubstr("is empty (0 bytes)"));
  {
    SceneDatabase database(path, Mode::kReadWrite);  // SQLite's new database
    testing::AddImages(&database, 1);
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.NumImages(), 1);
}

TEST(SceneDatabaseOpen, TruncatedDatabase) {
  const std::string path = TempDatabasePath("truncated");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 10);
    SceneDatabase::Transaction transaction(&database);
    for (int image_id = 1; image_id <= 10; ++image_id) {
      database.WriteKeypoints(image_id, testing::MakeKeypoints(2000, image_id));
      database.WriteDescriptors(image_id, testing::MakeDescriptors(2000, image_id));
    }
    transaction.Commit();
  }
  const std::string bytes = testing::ReadFileBytes(path);
  ASSERT_GT(bytes.size(), 2'000'000u);
  testing::WriteFileBytes(path, bytes.substr(0, bytes.size() / 2));
  for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite}) {
    const std::string error = OpenError(path, mode);
    EXPECT_THAT(error, HasSubstr("scene database '" + path + "' is truncated ("));
    EXPECT_THAT(error, HasSubstr("MB its header records"));
    EXPECT_THAT(error, HasSubstr("remove it or point --database elsewhere"));
  }
}

TEST(SceneDatabaseOpen, CorruptPageIsInputErrorAtQuery) {
  const std::string path = TempDatabasePath("corrupt_page");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 3);
    for (int image_id = 1; image_id <= 3; ++image_id) {
      database.WriteKeypoints(image_id, testing::MakeKeypoints(300, image_id));
    }
  }
  int64_t root_page = 0, page_size = 0;
  {
    RawDatabase raw(path);
    root_page = raw.QueryInt("SELECT rootpage FROM sqlite_master WHERE name = 'keypoints';");
    page_size = raw.QueryInt("PRAGMA page_size;");
  }
  ASSERT_GT(root_page, 1);
  std::string bytes = testing::ReadFileBytes(path);
  bytes.replace((root_page - 1) * page_size, page_size, std::string(page_size, '\xab'));
  testing::WriteFileBytes(path, bytes);
  for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite}) {
    SceneDatabase database(path, mode);  // the header and schema pages are intact
    EXPECT_EQ(database.NumImages(), 3);
    const std::string error = InputErrorOf([&] { database.ReadKeypoints(2); });
    EXPECT_THAT(error, HasSubstr("scene database '" + path + "' is corrupt"));
    EXPECT_THAT(error, HasSubstr("remove it or point --database elsewhere"));
  }
}

TEST(SceneDatabaseOpen, SqliteDatabaseOfAnotherProgram) {
  const std::string path = TempDatabasePath("foreign");
  RawDatabase(path).Exec("CREATE TABLE orders(id INTEGER PRIMARY KEY, total REAL);"
                         "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);");
  for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite}) {
    const std::string error = OpenError(path, mode);
    EXPECT_THAT(error, HasSubstr("'" + path + "' is an SQLite database of another program"));
    EXPECT_THAT(error, HasSubstr("customers, orders"));
  }
  RawDatabase raw(path);
  EXPECT_EQ(raw.QueryInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table';"), 2)
      << "a foreign database must not get our tables";
}

TEST(SceneDatabaseOpen, SqliteDatabaseWithoutTables) {
  const std::string path = TempDatabasePath("no_tables");
  RawDatabase(path).Exec("PRAGMA user_version = 7;");  // writes the header, no table
  EXPECT_THAT(OpenError(path, Mode::kReadOnly), HasSubstr("without tables"));
  SceneDatabase database(path, Mode::kReadWrite);
  EXPECT_EQ(database.NumImages(), 0);
}

TEST(SceneDatabaseOpen, SecondReadWriteOpenIsInUse) {
  const std::string path = TempDatabasePath("in_use");
  {
    SceneDatabase first(path, Mode::kReadWrite);
    const std::string error = OpenError(path, Mode::kReadWrite);
    EXPECT_THAT(error, HasSubstr("scene database '" + path + "' is in use by another process"));
    testing::AddImages(&first, 1);  // holds the exclusive lock from here on
    EXPECT_THAT(OpenError(path, Mode::kReadOnly), HasSubstr("is in use by another process"));
    EXPECT_THAT(OpenError(path, Mode::kReadWrite), HasSubstr("is in use by another process"));
    EXPECT_EQ(first.NumImages(), 1);  // the first one is unaffected
  }
  SceneDatabase again(path, Mode::kReadWrite);  // closing released the lock
  EXPECT_EQ(again.NumImages(), 1);
}

TEST(SceneDatabaseOpen, ConnectionHoldingAWriteLock) {
  const std::string path = TempDatabasePath("raw_lock");
  { SceneDatabase database(path, Mode::kReadWrite); }
  RawDatabase raw(path);
  raw.Exec("BEGIN EXCLUSIVE;");
  for (Mode mode : {Mode::kReadOnly, Mode::kReadWrite}) {
    EXPECT_THAT(OpenError(path, mode), HasSubstr("is in use by another process"));
  }
  raw.Exec("COMMIT;");
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.NumImages(), 0);
}

// A writer killed in the middle of a large transaction (its pages already spilled into the
// file) leaves the last committed state: SQLite rolls the hot journal back on the next
// read-write open, and the size check does not take the file for a truncated one.
TEST(SceneDatabaseOpen, KilledWriterLeavesLastCommittedState) {
  const std::string path = TempDatabasePath("killed_writer");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      SceneDatabase database(path, Mode::kReadWrite);
      testing::AddImages(&database, 20);
      SceneDatabase::Transaction transaction(&database);
      for (int image_id = 1; image_id <= 20; ++image_id) {
        database.WriteDescriptors(image_id, testing::MakeDescriptors(5000, image_id));
      }
      raise(SIGKILL);
    } catch (...) {
    }
    _exit(3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the writer failed early";
  // 12.8 MB of descriptors overflow SQLite's 2 MB page cache, so the file holds uncommitted
  // pages and a hot journal, which a read-only connection may not roll back.
  ASSERT_TRUE(fs::exists(path + "-journal"));
  EXPECT_THAT(OpenError(path, Mode::kReadOnly),
              HasSubstr("'" + path + "' was left in the middle of a write by a process that "
                        "stopped"));
  {
    SceneDatabase database(path, Mode::kReadWrite);
    EXPECT_EQ(database.NumImages(), 20);
    EXPECT_TRUE(database.ReadDescriptors(1).empty());
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.NumImages(), 20);
  EXPECT_TRUE(database.ReadDescriptors(20).empty());
}

// COLMAP switches every database it opens to WAL journaling; locking and writes must work
// the same there.
TEST(SceneDatabaseOpen, WalModeDatabase) {
  const std::string path = TempDatabasePath("wal_mode");
  { SceneDatabase database(path, Mode::kReadWrite); }
  EXPECT_EQ(RawDatabase(path).QueryText("PRAGMA journal_mode = WAL;"), "wal");
  {
    SceneDatabase database(path, Mode::kReadWrite);
    testing::AddImages(&database, 2);
    EXPECT_THAT(OpenError(path, Mode::kReadWrite), HasSubstr("is in use by another process"));
    EXPECT_THAT(OpenError(path, Mode::kReadOnly), HasSubstr("is in use by another process"));
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.NumImages(), 2);
}

// COLMAP 3.8's tables exactly as it creates them, without pose_priors and our tables.
constexpr const char* kColmap38Schema =
    "CREATE TABLE cameras(camera_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, model INTEGER "
    "NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, params BLOB, prior_focal_length "
    "INTEGER NOT NULL);"
    "CREATE TABLE images(image_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, name TEXT NOT NULL "
    "UNIQUE, camera_id INTEGER NOT NULL, prior_qw REAL, prior_qx REAL, prior_qy REAL, prior_qz "
    "REAL, prior_tx REAL, prior_ty REAL, prior_tz REAL, CONSTRAINT image_id_check CHECK(image_id "
    ">= 0 and image_id < 2147483647), FOREIGN KEY(camera_id) REFERENCES cameras(camera_id));"
    "CREATE UNIQUE INDEX index_name ON images(name);"
    "CREATE TABLE keypoints(image_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT NULL, cols "
    "INTEGER NOT NULL, data BLOB, FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE "
    "CASCADE);"
    "CREATE TABLE descriptors(image_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT NULL, cols "
    "INTEGER NOT NULL, data BLOB, FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE "
    "CASCADE);"
    "CREATE TABLE matches(pair_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT NULL, cols "
    "INTEGER NOT NULL, data BLOB);"
    "CREATE TABLE two_view_geometries(pair_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT "
    "NULL, cols INTEGER NOT NULL, data BLOB, config INTEGER NOT NULL, F BLOB, E BLOB, H BLOB, "
    "qvec BLOB, tvec BLOB);";

TEST(SceneDatabaseOpen, Colmap38DatabaseWithoutOurTables) {
  const std::string path = TempDatabasePath("colmap38");
  {
    RawDatabase raw(path);
    raw.Exec(kColmap38Schema);
    const double params[] = {1000, 500, 400, 0.0};
    raw.Exec("INSERT INTO cameras VALUES(1, 2, 1000, 800, " +
             testing::SqlBlob(params, sizeof(params)) + ", 0);");
    raw.Exec("INSERT INTO images VALUES(1, 'a.jpg', 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL);");
  }
  {
    SceneDatabase database(path, Mode::kReadOnly);
    EXPECT_EQ(database.ReadImages().at(0).name, "a.jpg");
    EXPECT_EQ(database.ReadCameras().at(0).camera.model, CameraModelId::kSimpleRadial);
    EXPECT_FALSE(database.ReadPosePrior(1));
    EXPECT_FALSE(database.ReadImageFileInfo(1));
    EXPECT_FALSE(database.ReadStageOptions("extraction"));
    EXPECT_TRUE(database.ReadSkippedFiles().empty());
    EXPECT_FALSE(database.ReadKltPointCount(1));
  }
  EXPECT_EQ(RawDatabase(path).QueryInt("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE "
                                       "'proj_%' OR name = 'pose_priors';"), 0)
      << "read-only must not change the file";
  {
    SceneDatabase database(path, Mode::kReadWrite);  // adds pose_priors and our tables
    database.WriteStageOptions("extraction", "x");
    database.WritePosePrior(1, PosePrior());
  }
  SceneDatabase database(path, Mode::kReadOnly);
  EXPECT_EQ(database.ReadStageOptions("extraction"), "x");
  EXPECT_TRUE(database.ReadPosePrior(1));
}

TEST(SceneDatabaseOpen, Colmap4DatabaseIsReadByColumnName) {
  const std::string path = TempDatabasePath("colmap4");
  {
    // COLMAP 4.1's layout: images without prior columns, descriptors with a type column,
    // pose priors per sensor data item, rigs and frames.
    RawDatabase raw(path);
    raw.Exec(
        "CREATE TABLE rigs(rig_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ref_sensor_id "
        "INTEGER NOT NULL, ref_sensor_type INTEGER NOT NULL);"
        "CREATE TABLE frames(frame_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, rig_id "
        "INTEGER NOT NULL);"
        "CREATE TABLE cameras(camera_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, model "
        "INTEGER NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL, params BLOB, "
        "prior_focal_length INTEGER NOT NULL);"
        "CREATE TABLE images(image_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, name TEXT NOT "
        "NULL UNIQUE, camera_id INTEGER NOT NULL);"
        "CREATE TABLE pose_priors(pose_prior_id INTEGER PRIMARY KEY NOT NULL, corr_data_id "
        "INTEGER NOT NULL, corr_sensor_id INTEGER NOT NULL, corr_sensor_type INTEGER NOT NULL, "
        "position BLOB, position_covariance BLOB, gravity BLOB, coordinate_system INTEGER NOT "
        "NULL);"
        "CREATE TABLE keypoints(image_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT NULL, "
        "cols INTEGER NOT NULL, data BLOB);"
        "CREATE TABLE descriptors(image_id INTEGER PRIMARY KEY NOT NULL, type INTEGER NOT NULL, "
        "rows INTEGER NOT NULL, cols INTEGER NOT NULL, data BLOB);"
        "CREATE TABLE matches(pair_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT NULL, cols "
        "INTEGER NOT NULL, data BLOB);"
        "CREATE TABLE two_view_geometries(pair_id INTEGER PRIMARY KEY NOT NULL, rows INTEGER NOT "
        "NULL, cols INTEGER NOT NULL, data BLOB, config INTEGER NOT NULL, F BLOB, E BLOB, H "
        "BLOB, qvec BLOB, tvec BLOB);");
    const double params[] = {1000, 1010, 500, 400};
    raw.Exec("INSERT INTO cameras VALUES(1, 1, 1000, 800, " +
             testing::SqlBlob(params, sizeof(params)) + ", 1);");
    raw.Exec("INSERT INTO images VALUES(1, 'a.jpg', 1), (2, 'b.jpg', 1);");
    const std::vector<uint8_t> descriptors = testing::MakeDescriptors(2, 9);
    raw.Exec("INSERT INTO descriptors VALUES(2, 0, 2, 128, " +
             testing::SqlBlob(descriptors.data(), descriptors.size()) + ");");
    const double position[] = {1.0, 2.0, 3.0};
    raw.Exec("INSERT INTO pose_priors VALUES(1, 2, 1, 0, " +
             testing::SqlBlob(position, sizeof(position)) + ", NULL, NULL, 1);");
  }
  {
    SceneDatabase database(path, Mode::kReadOnly);
    ASSERT_EQ(database.ReadImages().size(), 2u);
    EXPECT_EQ(database.ReadCameras().at(0).camera.params, (std::vector<double>{1000, 1010, 500, 400}));
    EXPECT_EQ(database.ReadDescriptors(2), testing::MakeDescriptors(2, 9));
    const std::optional<PosePrior> prior = database.ReadPosePrior(2);
    ASSERT_TRUE(prior);
    EXPECT_EQ(prior->position, Eigen::Vector3d(1, 2, 3));
    EXPECT_EQ(prior->coordinate_system, PosePrior::CoordinateSystem::kCartesian);
    EXPECT_FALSE(database.ReadPosePrior(1));
    EXPECT_FALSE(database.ReadImageFileInfo(1));
  }
  EXPECT_THAT(OpenError(path, Mode::kReadWrite), HasSubstr("was written by COLMAP 4"));
}

}  // namespace
}  // namespace proj
