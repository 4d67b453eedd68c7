// SceneDatabase: opening, locking, the schema, transactions and counts. The rows of the
// tables are read and written in scene_database_images.cc and scene_database_features.cc.
#include "sfm/database/scene_database.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/check.h"
#include "sfm/database/database_file_check.h"
#include "sfm/database/database_schema.h"
#include "sfm/database/scene_database_statements.h"

namespace proj {
namespace {

using internal::DatabaseSubject;
using internal::ExecSql;
using internal::SqliteStatement;
using internal::StatementUse;

// Long enough to ride out another connection's short commit, short enough that a second
// process opening a database in use fails at once with a clear message.
constexpr int kBusyTimeoutMs = 1000;

std::vector<std::string> TableNames(sqlite3* db, const std::string& path) {
  SqliteStatement statement(db, path,
                            "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                            "name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name;");
  StatementUse use(&statement);
  std::vector<std::string> names;
  while (use->Step("list its tables")) names.push_back(use->ColumnText(0));
  return names;
}

std::set<std::string> ColumnNames(sqlite3* db, const std::string& path, const char* table) {
  // `table` is one of our constant names, so it can be part of the statement.
  SqliteStatement statement(db, path, std::string("PRAGMA table_info(") + table + ");");
  StatementUse use(&statement);
  std::set<std::string> names;
  while (use->Step("list the columns of a table")) names.insert(use->ColumnText(1));
  return names;
}

std::string ListForMessage(const std::vector<std::string>& names) {
  constexpr size_t kMaxListed = 8;
  std::string list;
  for (size_t i = 0; i < std::min(names.size(), kMaxListed); ++i) {
    list += (i > 0 ? ", " : "") + names[i];
  }
  if (names.size() > kMaxListed) {
    list += " and " + std::to_string(names.size() - kMaxListed) + " more";
  }
  return list;
}

// pose_priors has COLMAP 3.10's layout (image_id; position_covariance since 3.11) or
// COLMAP 4's (a prior per sensor data item, whose id is the image id for cameras).
std::string ReadPosePriorSql(const std::set<std::string>& columns) {
  const std::string covariance =
      columns.count("position_covariance") > 0 ? "position_covariance" : "NULL";
  const std::string select = "SELECT position, coordinate_system, " + covariance + " FROM pose_priors ";
  if (columns.count("image_id") > 0) return select + "WHERE image_id = ?1;";
  constexpr int kColmapCameraSensor = 0;
  return select + "WHERE corr_data_id = ?1 AND corr_sensor_type = " +
         std::to_string(kColmapCameraSensor) + ";";
}

// proj_enu_frame, with the datum columns of older databases read as their default.
std::string ReadEnuFrameSql(const std::set<std::string>& columns) {
  std::string sql = "SELECT latitude_deg, longitude_deg, altitude_m";
  for (const internal::DatabaseColumn& column : internal::EnuFrameDatumColumns()) {
    sql += ", ";
    if (columns.count(column.name) > 0) {
      sql += column.name;
    } else {
      const std::string definition = column.definition;
      sql += definition.substr(definition.find("DEFAULT ") + 8);
    }
  }
  return sql + " FROM proj_enu_frame WHERE id = 0;";
}

}  // namespace

namespace internal {

AtomicWrite::~AtomicWrite() {
  if (released_) return;
  // Undo this write only; an error here leaves SQLite's own rollback of the transaction.
  try {
    write_->rollback_to.Run("undo a failed write");
    write_->release.Run("undo a failed write");
  } catch (const InputError&) {
  }
}

}  // namespace internal

SceneDatabase::Statements::Statements(sqlite3* db, const std::string& path,
                                      const std::string& read_pose_prior_sql,
                                      const std::string& read_enu_frame_sql, bool writable)
    : db(db),
      path(path),
      read_pose_prior(db, path, read_pose_prior_sql),
      read_enu_frame(db, path, read_enu_frame_sql) {
  if (writable) write = std::make_unique<internal::WriteStatements>(db, path);
}

int64_t PairIdFromImageIds(int image_id1, int image_id2) {
  PROJ_REQUIRE(image_id1 >= 0 && image_id2 >= 0,
               "image ids of a pair must not be negative (" << image_id1 << ", " << image_id2
                                                            << ")");
  const int64_t smaller = std::min(image_id1, image_id2);
  const int64_t larger = std::max(image_id1, image_id2);
  return kMaxNumDatabaseImages * smaller + larger;
}

std::pair<int, int> ImageIdsFromPairId(int64_t pair_id) {
  PROJ_REQUIRE(pair_id >= 0, "pair id " << pair_id << " is negative");
  return {static_cast<int>(pair_id / kMaxNumDatabaseImages),
          static_cast<int>(pair_id % kMaxNumDatabaseImages)};
}

SceneDatabase::SceneDatabase(const std::string& path, Mode mode) : path_(path), mode_(mode) {
  try {
    Open();
  } catch (...) {
    statements_.reset();
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw;
  }
}

SceneDatabase::~SceneDatabase() {
  // Statements first: a connection closes once its statements are finalized.
  statements_.reset();
  sqlite3_close_v2(db_);
}

void SceneDatabase::Open() {
  namespace fs = std::filesystem;
  using internal::DatabaseFileState;
  const std::string subject = DatabaseSubject(path_);
  const bool read_only = mode_ == Mode::kReadOnly;
  const DatabaseFileState state = internal::CheckDatabaseFile(path_);
  if (read_only) {
    PROJ_REQUIRE(state != DatabaseFileState::kMissing,
                 subject << " does not exist; point --database at an existing scene database");
    PROJ_REQUIRE(state != DatabaseFileState::kEmpty,
                 subject << " is empty (0 bytes), not a scene database; point --database at "
                            "a scene database");
  } else if (state == DatabaseFileState::kMissing) {
    const fs::path folder = fs::path(path_).parent_path();
    std::error_code error;
    PROJ_REQUIRE(folder.empty() || fs::is_directory(folder, error),
                 "cannot create " << subject << ": the folder '" << folder.string()
                                  << "' does not exist");
  }

  const int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  const int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) internal::ThrowSqliteError(db_, rc, path_, "open the file");
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  ExecSql(db_, path_, "PRAGMA foreign_keys = ON;", "enable foreign keys");
  if (!read_only) {
    // Exclusive locking mode keeps every lock until the connection closes; taking the write
    // lock right away makes a second process fail here, not halfway through its work.
    ExecSql(db_, path_, "PRAGMA locking_mode = EXCLUSIVE;", "set the locking mode");
    ExecSql(db_, path_, "BEGIN IMMEDIATE;", "lock the database for writing");
  }

  const std::vector<std::string> tables = TableNames(db_, path_);
  const auto has_table = [&](const std::string& name) {
    return std::binary_search(tables.begin(), tables.end(), name);
  };
  PROJ_REQUIRE(!(read_only && tables.empty()),
               subject << " is an SQLite database without tables, not a scene database; "
                          "point --database at a scene database");
  PROJ_REQUIRE(tables.empty() || (has_table("images") && has_table("cameras")),
               subject << " is an SQLite database of another program (its tables: "
                       << ListForMessage(tables)
                       << "), not a scene database: it has no COLMAP 'images' and 'cameras' "
                          "tables; point --database elsewhere");
  PROJ_REQUIRE(read_only || !(has_table("rigs") || has_table("frames")),
               subject << " was written by COLMAP 4 (it has tables rigs and frames), whose "
                          "images need rows this program does not write; open it read-only "
                          "or point --database elsewhere");
  for (const internal::DatabaseTable& table : internal::SceneDatabaseTables()) {
    if (has_table(table.name)) continue;
    // Read-only: an empty temporary table stands in, so reads of it find no rows.
    const std::string sql = internal::CreateTableSql(table, /*temporary=*/read_only);
    ExecSql(db_, path_, sql.c_str(), std::string("create table ") + table.name);
  }
  std::set<std::string> pose_prior_columns = ColumnNames(db_, path_, "pose_priors");
  if (!read_only && pose_prior_columns.count("position_covariance") == 0) {
    // COLMAP 3.10 had no covariance; 3.11 adds the column the same way.
    ExecSql(db_, path_, "ALTER TABLE pose_priors ADD COLUMN position_covariance BLOB;",
            "add pose_priors.position_covariance");
    pose_prior_columns.insert("position_covariance");
  }
  std::set<std::string> enu_frame_columns = ColumnNames(db_, path_, "proj_enu_frame");
  for (const internal::DatabaseColumn& column : internal::EnuFrameDatumColumns()) {
    if (read_only || enu_frame_columns.count(column.name) > 0) continue;
    ExecSql(db_, path_,
            (std::string("ALTER TABLE proj_enu_frame ADD COLUMN ") + column.name + " " +
             column.definition + ";")
                .c_str(),
            std::string("add proj_enu_frame.") + column.name);
    enu_frame_columns.insert(column.name);
  }
  if (!read_only) ExecSql(db_, path_, "COMMIT;", "create the tables");
  statements_ = std::make_unique<Statements>(db_, path_, ReadPosePriorSql(pose_prior_columns),
                                             ReadEnuFrameSql(enu_frame_columns),
                                             /*writable=*/!read_only);
}

void SceneDatabase::RequireWritable(const char* action) const {
  PROJ_REQUIRE(mode_ == Mode::kReadWrite,
               "cannot " << action << " in " << DatabaseSubject(path_)
                         << ": it was opened read-only");
}

SceneDatabase::Transaction::Transaction(SceneDatabase* database) : database_(database) {
  database_->RequireWritable("begin a transaction");
  PROJ_CHECK(!database_->in_transaction_, "scene database transactions do not nest");
  database_->statements_->write->begin.Run("begin a transaction");
  database_->in_transaction_ = true;
}

SceneDatabase::Transaction::~Transaction() {
  if (committed_) return;
  database_->in_transaction_ = false;
  // Destructors must not throw; when SQLite already rolled back (a failed write), ROLLBACK
  // fails harmlessly.
  try {
    database_->statements_->write->rollback.Run("roll back a transaction");
  } catch (const InputError&) {
  }
}

void SceneDatabase::Transaction::Commit() {
  PROJ_CHECK(!committed_, "a scene database transaction was committed twice");
  database_->statements_->write->commit.Run("commit a transaction");
  committed_ = true;
  database_->in_transaction_ = false;
}

namespace {
int64_t CountQuery(SqliteStatement* statement, const char* action) {
  StatementUse use(statement);
  use->Step(action);
  return use->ColumnInt64(0);
}
}  // namespace

int SceneDatabase::NumImages() const {
  return static_cast<int>(CountQuery(&statements_->count_images, "count the images"));
}

int SceneDatabase::NumCameras() const {
  return static_cast<int>(CountQuery(&statements_->count_cameras, "count the cameras"));
}

int64_t SceneDatabase::NumKeypoints() const {
  return CountQuery(&statements_->sum_keypoints, "count the keypoints");
}

}  // namespace proj
