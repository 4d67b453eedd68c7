#include "sfm/database/database_schema.h"

namespace proj::internal {
namespace {

// keypoints and descriptors: one rows x cols matrix blob per image.
constexpr const char* kImageBlobColumns =
    "(image_id INTEGER PRIMARY KEY NOT NULL,"
    " rows INTEGER NOT NULL,"
    " cols INTEGER NOT NULL,"
    " data BLOB,"
    " FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE CASCADE)";

}  // namespace

// COLMAP's tables keep COLMAP 3.8's column names, types and constraints exactly (COLMAP
// opens the file with CREATE TABLE IF NOT EXISTS and reads columns by position), including
// images' image_id CHECK against kMaxNumDatabaseImages and the unique name index.
const std::vector<DatabaseTable>& SceneDatabaseTables() {
  static const std::vector<DatabaseTable> tables = {
      {"cameras",
       "(camera_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,"
       " model INTEGER NOT NULL,"
       " width INTEGER NOT NULL,"
       " height INTEGER NOT NULL,"
       " params BLOB,"
       " prior_focal_length INTEGER NOT NULL)",
       ""},
      {"images",
       "(image_id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,"
       " name TEXT NOT NULL UNIQUE,"
       " camera_id INTEGER NOT NULL,"
       " prior_qw REAL,"
       " prior_qx REAL,"
       " prior_qy REAL,"
       " prior_qz REAL,"
       " prior_tx REAL,"
       " prior_ty REAL,"
       " prior_tz REAL,"
       " CONSTRAINT image_id_check CHECK(image_id >= 0 and image_id < 2147483647),"
       " FOREIGN KEY(camera_id) REFERENCES cameras(camera_id))",
       "CREATE UNIQUE INDEX IF NOT EXISTS index_name ON images(name);"},
      {"keypoints", kImageBlobColumns, ""},
      {"descriptors", kImageBlobColumns, ""},
      {"matches",
       "(pair_id INTEGER PRIMARY KEY NOT NULL,"
       " rows INTEGER NOT NULL,"
       " cols INTEGER NOT NULL,"
       " data BLOB)",
       ""},
      {"two_view_geometries",
       "(pair_id INTEGER PRIMARY KEY NOT NULL,"
       " rows INTEGER NOT NULL,"
       " cols INTEGER NOT NULL,"
       " data BLOB,"
       " config INTEGER NOT NULL,"
       " F BLOB,"
       " E BLOB,"
       " H BLOB,"
       " qvec BLOB,"
       " tvec BLOB)",
       ""},
      {"pose_priors",
       "(image_id INTEGER PRIMARY KEY NOT NULL,"
       " position BLOB,"
       " coordinate_system INTEGER NOT NULL,"
       " position_covariance BLOB,"
       " FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE CASCADE)",
       ""},
      // Ours. exif_focal_px is NULL when the file has no focal length.
      {"proj_image_files",
       "(image_id INTEGER PRIMARY KEY NOT NULL,"
       " file_size INTEGER NOT NULL,"
       " modification_time_ns INTEGER NOT NULL,"
       " width INTEGER NOT NULL,"
       " height INTEGER NOT NULL,"
       " exif_focal_px REAL,"
       " camera_label TEXT NOT NULL,"
       " FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE CASCADE)",
       ""},
      {"proj_skipped_files",
       "(name TEXT PRIMARY KEY NOT NULL,"
       " reason TEXT NOT NULL,"
       " file_size INTEGER NOT NULL,"
       " modification_time_ns INTEGER NOT NULL)",
       ""},
      {"proj_stage_options",
       "(stage TEXT PRIMARY KEY NOT NULL,"
       " options TEXT NOT NULL)",
       ""},
      {"proj_klt_images",
       "(image_id INTEGER PRIMARY KEY NOT NULL,"
       " num_klt_points INTEGER NOT NULL,"
       " FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE CASCADE)",
       ""},
      // One row (id 0) at most: the reference of the local ENU frame of the GPS priors, the
      // datum ('egm96' or 'ellipsoid') of its heights, of the outputs and, when one was
      // imposed, of every fix (NULL: each image's, proj_image_capture). Frames written before
      // the datums were recorded used the fixes' sea-level altitudes as they were.
      {"proj_enu_frame",
       "(id INTEGER PRIMARY KEY NOT NULL CHECK(id = 0),"
       " latitude_deg REAL NOT NULL,"
       " longitude_deg REAL NOT NULL,"
       " altitude_m REAL NOT NULL,"
       " heights_datum TEXT NOT NULL DEFAULT 'egm96',"
       " output_datum TEXT NOT NULL DEFAULT 'egm96',"
       " fixes_datum TEXT DEFAULT NULL)",
       ""},
      // Per image, from its file: capture time (EXIF DateTimeOriginal, seconds, NULL when
      // absent) and the datum of its GPS altitude ('egm96' or 'ellipsoid'; NULL without one).
      {"proj_image_capture",
       "(image_id INTEGER PRIMARY KEY NOT NULL,"
       " capture_time_s REAL,"
       " altitude_datum TEXT,"
       " FOREIGN KEY(image_id) REFERENCES images(image_id) ON DELETE CASCADE)",
       ""},
  };
  return tables;
}

const std::vector<DatabaseColumn>& EnuFrameDatumColumns() {
  static const std::vector<DatabaseColumn> columns = {
      {"heights_datum", "TEXT NOT NULL DEFAULT 'egm96'"},
      {"output_datum", "TEXT NOT NULL DEFAULT 'egm96'"},
      {"fixes_datum", "TEXT DEFAULT NULL"}};
  return columns;
}

std::string CreateTableSql(const DatabaseTable& table, bool temporary) {
  std::string sql = temporary ? "CREATE TEMP TABLE IF NOT EXISTS " : "CREATE TABLE IF NOT EXISTS ";
  sql += table.name;
  sql += table.columns;
  sql += ";";
  // The temporary stand-ins are never written, so they need no index.
  if (!temporary) sql += table.index;
  return sql;
}

}  // namespace proj::internal
