// The prepared statements of SceneDatabase (private to sfm/database): prepared once when the
// database opens, so that per-row calls (10,000 images, millions of pairs) only bind and
// step. Write statements exist only in read-write mode: a COLMAP 4 database opened
// read-only has tables our INSERTs do not fit.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "sfm/database/database_encoding.h"
#include "sfm/database/scene_database.h"
#include "sfm/database/sqlite_statement.h"

namespace proj {

namespace internal {

// Every statement that changes the file.
struct WriteStatements {
  WriteStatements(sqlite3* db, const std::string& path) : db(db), path(path) {}
  sqlite3* db;
  std::string path;
  SqliteStatement begin{db, path, "BEGIN IMMEDIATE;"};
  SqliteStatement commit{db, path, "COMMIT;"};
  SqliteStatement rollback{db, path, "ROLLBACK;"};
  // A savepoint makes the statements of one multi-table write atomic, inside or outside a
  // Transaction.
  SqliteStatement savepoint{db, path, "SAVEPOINT proj_write;"};
  SqliteStatement release{db, path, "RELEASE proj_write;"};
  SqliteStatement rollback_to{db, path, "ROLLBACK TO proj_write;"};

  SqliteStatement insert_camera{db, path,
      "INSERT INTO cameras(model, width, height, params, prior_focal_length) "
      "VALUES(?1, ?2, ?3, ?4, ?5);"};
  SqliteStatement update_camera{db, path,
      "UPDATE cameras SET model = ?1, width = ?2, height = ?3, params = ?4, "
      "prior_focal_length = ?5 WHERE camera_id = ?6;"};
  SqliteStatement delete_unused_cameras{db, path,
      "DELETE FROM cameras WHERE camera_id NOT IN (SELECT camera_id FROM images);"};
  // The prior_* columns stay NULL: COLMAP 3.8 reads NULL as "no prior".
  SqliteStatement insert_image{db, path, "INSERT INTO images(name, camera_id) VALUES(?1, ?2);"};
  SqliteStatement set_image_camera{db, path,
      "UPDATE images SET camera_id = ?1 WHERE image_id = ?2;"};
  SqliteStatement delete_image{db, path, "DELETE FROM images WHERE image_id = ?1;"};

  SqliteStatement write_keypoints{db, path,
      "INSERT OR REPLACE INTO keypoints(image_id, rows, cols, data) VALUES(?1, ?2, ?3, ?4);"};
  SqliteStatement write_descriptors{db, path,
      "INSERT OR REPLACE INTO descriptors(image_id, rows, cols, data) VALUES(?1, ?2, ?3, ?4);"};
  SqliteStatement delete_keypoints{db, path, "DELETE FROM keypoints WHERE image_id = ?1;"};
  SqliteStatement delete_descriptors{db, path, "DELETE FROM descriptors WHERE image_id = ?1;"};

  SqliteStatement write_matches{db, path,
      "INSERT OR REPLACE INTO matches(pair_id, rows, cols, data) VALUES(?1, ?2, ?3, ?4);"};
  SqliteStatement write_geometry{db, path,
      "INSERT OR REPLACE INTO two_view_geometries"
      "(pair_id, rows, cols, data, config, F, E, H, qvec, tvec) "
      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10);"};
  SqliteStatement delete_all_geometries{db, path, "DELETE FROM two_view_geometries;"};
  SqliteStatement delete_all_matches{db, path, "DELETE FROM matches;"};
  // The pairs of image ?1: those where it is the smaller id form one pair_id range; those
  // where it is the larger id are probed through the primary key, one per smaller image.
  // There is no index on "pair_id % kMaxNumDatabaseImages", so no scan of the table.
  SqliteStatement delete_matches_as_first{db, path,
      "DELETE FROM matches WHERE pair_id BETWEEN ?1 * 2147483647 AND ?1 * 2147483647 + 2147483646;"};
  SqliteStatement delete_matches_as_second{db, path,
      "DELETE FROM matches WHERE pair_id IN "
      "(SELECT image_id * 2147483647 + ?1 FROM images WHERE image_id < ?1);"};
  SqliteStatement delete_geometries_as_first{db, path,
      "DELETE FROM two_view_geometries WHERE pair_id BETWEEN ?1 * 2147483647 AND "
      "?1 * 2147483647 + 2147483646;"};
  SqliteStatement delete_geometries_as_second{db, path,
      "DELETE FROM two_view_geometries WHERE pair_id IN "
      "(SELECT image_id * 2147483647 + ?1 FROM images WHERE image_id < ?1);"};

  SqliteStatement write_pose_prior{db, path,
      "INSERT OR REPLACE INTO pose_priors(image_id, position, coordinate_system, "
      "position_covariance) VALUES(?1, ?2, ?3, ?4);"};
  SqliteStatement delete_pose_prior{db, path, "DELETE FROM pose_priors WHERE image_id = ?1;"};
  SqliteStatement write_enu_frame{db, path,
      "INSERT OR REPLACE INTO proj_enu_frame(id, latitude_deg, longitude_deg, altitude_m, "
      "heights_datum, output_datum, fixes_datum) VALUES(0, ?1, ?2, ?3, ?4, ?5, ?6);"};
  SqliteStatement delete_enu_frame{db, path, "DELETE FROM proj_enu_frame;"};

  SqliteStatement write_image_file{db, path,
      "INSERT OR REPLACE INTO proj_image_files(image_id, file_size, modification_time_ns, "
      "width, height, exif_focal_px, camera_label) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7);"};
  SqliteStatement delete_image_file{db, path,
      "DELETE FROM proj_image_files WHERE image_id = ?1;"};
  SqliteStatement write_image_capture{db, path,
      "INSERT OR REPLACE INTO proj_image_capture(image_id, capture_time_s, altitude_datum) "
      "VALUES(?1, ?2, ?3);"};
  SqliteStatement delete_image_capture{db, path,
      "DELETE FROM proj_image_capture WHERE image_id = ?1;"};
  SqliteStatement delete_skipped_files{db, path, "DELETE FROM proj_skipped_files;"};
  SqliteStatement insert_skipped_file{db, path,
      "INSERT OR REPLACE INTO proj_skipped_files(name, reason, file_size, "
      "modification_time_ns) VALUES(?1, ?2, ?3, ?4);"};
  SqliteStatement write_stage_options{db, path,
      "INSERT OR REPLACE INTO proj_stage_options(stage, options) VALUES(?1, ?2);"};
  SqliteStatement delete_stage_options{db, path,
      "DELETE FROM proj_stage_options WHERE stage = ?1;"};
  SqliteStatement write_klt_count{db, path,
      "INSERT OR REPLACE INTO proj_klt_images(image_id, num_klt_points) VALUES(?1, ?2);"};
  SqliteStatement delete_klt_count{db, path, "DELETE FROM proj_klt_images WHERE image_id = ?1;"};
};

// Deletes the matches and two-view geometries of every pair of the image.
void DeletePairsOfImage(WriteStatements* write, int image_id, std::string_view action);

// Makes the statements between construction and Release() one atomic change: destroyed
// before Release() (an exception), it undoes them and leaves an enclosing transaction open.
class AtomicWrite {
 public:
  explicit AtomicWrite(WriteStatements* write) : write_(write) {
    write_->savepoint.Run("start a write");
  }
  ~AtomicWrite();
  AtomicWrite(const AtomicWrite&) = delete;
  AtomicWrite& operator=(const AtomicWrite&) = delete;
  void Release() {
    write_->release.Run("finish a write");
    released_ = true;
  }

 private:
  WriteStatements* write_;
  bool released_ = false;
};

}  // namespace internal

struct SceneDatabase::Statements {
  // `read_pose_prior_sql` depends on the layout of pose_priors (COLMAP 3.10+ or 4),
  // `read_enu_frame_sql` on the columns of proj_enu_frame (datums since they were recorded).
  Statements(sqlite3* db, const std::string& path, const std::string& read_pose_prior_sql,
             const std::string& read_enu_frame_sql, bool writable);
  sqlite3* db;
  std::string path;
  using SqliteStatement = internal::SqliteStatement;

  SqliteStatement read_cameras{db, path,
      "SELECT camera_id, model, width, height, params, prior_focal_length FROM cameras "
      "ORDER BY camera_id;"};
  SqliteStatement camera_exists{db, path, "SELECT 1 FROM cameras WHERE camera_id = ?1;"};
  SqliteStatement find_image{db, path,
      "SELECT image_id, name, camera_id FROM images WHERE name = ?1;"};
  SqliteStatement read_images{db, path,
      "SELECT image_id, name, camera_id FROM images ORDER BY image_id;"};
  SqliteStatement count_images{db, path, "SELECT COUNT(*) FROM images;"};
  SqliteStatement count_cameras{db, path, "SELECT COUNT(*) FROM cameras;"};
  SqliteStatement sum_keypoints{db, path, "SELECT COALESCE(SUM(rows), 0) FROM keypoints;"};

  SqliteStatement has_keypoints{db, path, "SELECT 1 FROM keypoints WHERE image_id = ?1;"};
  SqliteStatement read_keypoints{db, path,
      "SELECT rows, cols, data FROM keypoints WHERE image_id = ?1;"};
  SqliteStatement read_descriptors{db, path,
      "SELECT rows, cols, data FROM descriptors WHERE image_id = ?1;"};
  SqliteStatement read_matches{db, path,
      "SELECT rows, cols, data FROM matches WHERE pair_id = ?1;"};
  SqliteStatement matched_pair_ids{db, path, "SELECT pair_id FROM matches ORDER BY pair_id;"};
  SqliteStatement read_geometry{db, path,
      "SELECT pair_id, rows, cols, data, config, F, E, H, qvec, tvec FROM two_view_geometries "
      "WHERE pair_id = ?1;"};
  SqliteStatement read_geometries{db, path,
      "SELECT pair_id, rows, cols, data, config, F, E, H, qvec, tvec FROM two_view_geometries "
      "ORDER BY pair_id;"};
  SqliteStatement verified_pair_ids{db, path,
      "SELECT pair_id FROM two_view_geometries ORDER BY pair_id;"};
  SqliteStatement verified_pair_sizes{db, path,
      "SELECT pair_id, rows, config FROM two_view_geometries ORDER BY pair_id;"};

  SqliteStatement read_pose_prior;
  SqliteStatement read_image_file{db, path,
      "SELECT file_size, modification_time_ns, width, height, exif_focal_px, camera_label "
      "FROM proj_image_files WHERE image_id = ?1;"};
  SqliteStatement read_skipped_files{db, path,
      "SELECT name, reason, file_size, modification_time_ns FROM proj_skipped_files "
      "ORDER BY name;"};
  SqliteStatement read_stage_options{db, path,
      "SELECT options FROM proj_stage_options WHERE stage = ?1;"};
  SqliteStatement read_klt_count{db, path,
      "SELECT num_klt_points FROM proj_klt_images WHERE image_id = ?1;"};
  SqliteStatement read_enu_frame;
  SqliteStatement read_image_capture{db, path,
      "SELECT capture_time_s, altitude_datum FROM proj_image_capture WHERE image_id = ?1;"};

  std::unique_ptr<internal::WriteStatements> write;  // null in read-only mode
};

}  // namespace proj
