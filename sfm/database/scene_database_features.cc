// SceneDatabase: keypoints, descriptors, matches and two-view geometries.
#include "sfm/database/scene_database.h"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/check.h"
#include "sfm/database/scene_database_statements.h"

namespace proj {
namespace {

using internal::MatrixBlob;
using internal::RowOrigin;
using internal::SqliteStatement;
using internal::StatementUse;

using RowMajorMatrix3d = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

MatrixBlob MatrixBlobAt(const SqliteStatement& row, int rows_column) {
  // The data column follows rows and cols; SQLite wants the blob asked for before its size
  // (braced initializers evaluate left to right).
  return MatrixBlob{row.ColumnInt64(rows_column), row.ColumnInt64(rows_column + 1),
                    row.ColumnBlob(rows_column + 2), row.ColumnBytes(rows_column + 2)};
}

Eigen::Matrix3d Matrix3dAt(const SqliteStatement& row, int column, const char* name,
                           const RowOrigin& origin) {
  RowMajorMatrix3d matrix;
  const void* data = row.ColumnBlob(column);
  if (!internal::DoublesFromBlob(data, row.ColumnBytes(column), 9, name, origin, matrix.data())) {
    return Eigen::Matrix3d::Zero();
  }
  return matrix;
}

// A two_view_geometries row (pair_id, rows, cols, data, config, F, E, H, qvec, tvec) as the
// geometry from the smaller to the larger image id.
TwoViewGeometry GeometryFromRow(const SqliteStatement& row, std::string_view path) {
  const RowOrigin origin{path, "two_view_geometries", "pair_id", row.ColumnInt64(0)};
  TwoViewGeometry geometry;
  geometry.inlier_matches = internal::MatchesFromBlob(MatrixBlobAt(row, 1), false, origin);
  geometry.configuration = internal::TwoViewConfigurationFromColmap(row.ColumnInt64(4), origin);
  geometry.F = Matrix3dAt(row, 5, "F", origin);
  geometry.E = Matrix3dAt(row, 6, "E", origin);
  geometry.H = Matrix3dAt(row, 7, "H", origin);
  Eigen::Vector4d qvec;
  Eigen::Vector3d tvec;
  const void* qvec_data = row.ColumnBlob(8);
  const bool has_qvec =
      internal::DoublesFromBlob(qvec_data, row.ColumnBytes(8), 4, "qvec", origin, qvec.data());
  const void* tvec_data = row.ColumnBlob(9);
  const bool has_tvec =
      internal::DoublesFromBlob(tvec_data, row.ColumnBytes(9), 3, "tvec", origin, tvec.data());
  // COLMAP 3.8 writes qvec and tvec for every pair with inliers: zeros or the identity when
  // it estimated no pose, which therefore mean "no pose" here.
  const bool identity = qvec == Eigen::Vector4d(1, 0, 0, 0) && tvec.isZero(0);
  geometry.has_relative_pose = has_qvec && has_tvec && qvec.norm() > 1e-12 && !identity;
  if (geometry.has_relative_pose) {
    const Eigen::Quaterniond rotation(qvec[0], qvec[1], qvec[2], qvec[3]);
    geometry.cam2_from_cam1 = Rigid3d(rotation.normalized(), tvec);
  }
  return geometry;
}

// The decoded blob of one image in keypoints or descriptors; empty when it has no row.
template <typename Value>
std::vector<Value> ReadImageBlob(SqliteStatement* statement, int image_id,
                                 const std::string& path, const char* table,
                                 std::vector<Value> (*decode)(const MatrixBlob&,
                                                              const RowOrigin&)) {
  StatementUse row(statement);
  row->BindInt64(1, image_id);
  if (!row->Step(std::string("read the ") + table + " of an image")) return {};
  return decode(MatrixBlobAt(*row, 0), RowOrigin{path, table, "image_id", image_id});
}

std::string PairText(int image_id1, int image_id2) {
  return "images " + std::to_string(image_id1) + " and " + std::to_string(image_id2);
}

void RequirePair(int image_id1, int image_id2, const std::string& path) {
  PROJ_REQUIRE(image_id1 > 0 && image_id2 > 0 && image_id1 != image_id2,
               "a pair of " << internal::DatabaseSubject(path)
                            << " needs two different positive image ids, not "
                            << PairText(image_id1, image_id2));
}

// The matches blob of a pair; a negative keypoint index is the caller's error.
std::vector<uint32_t> MatchesBlob(const std::vector<FeatureMatch>& matches, bool swap,
                                  const char* what, int image_id1, int image_id2,
                                  const std::string& path) {
  std::vector<uint32_t> blob;
  PROJ_REQUIRE(internal::MatchesToBlob(matches, swap, &blob),
               "cannot write the " << what << " of " << PairText(image_id1, image_id2) << " to "
                                   << internal::DatabaseSubject(path)
                                   << ": a match has a negative keypoint index");
  return blob;
}

std::vector<int64_t> ReadPairIds(SqliteStatement* statement, const char* action) {
  StatementUse row(statement);
  std::vector<int64_t> pair_ids;
  while (row->Step(action)) pair_ids.push_back(row->ColumnInt64(0));
  return pair_ids;
}

}  // namespace

namespace internal {

void DeletePairsOfImage(WriteStatements* write, int image_id, std::string_view action) {
  for (SqliteStatement* statement :
       {&write->delete_matches_as_first, &write->delete_matches_as_second,
        &write->delete_geometries_as_first, &write->delete_geometries_as_second}) {
    statement->BindInt64(1, image_id);
    statement->Run(action);
  }
}

}  // namespace internal

void SceneDatabase::WriteKeypoints(int image_id, const std::vector<Keypoint>& keypoints) {
  RequireWritable("write keypoints");
  const std::vector<float> blob = internal::KeypointsToBlob(keypoints);
  SqliteStatement& write = statements_->write->write_keypoints;
  write.BindInt64(1, image_id);
  write.BindInt64(2, static_cast<int64_t>(keypoints.size()));
  write.BindInt64(3, 6);
  write.BindBlob(4, blob.data(), blob.size() * sizeof(float));
  write.Run("write the keypoints of image " + std::to_string(image_id));
}

void SceneDatabase::WriteDescriptors(int image_id, const std::vector<uint8_t>& descriptors) {
  RequireWritable("write descriptors");
  PROJ_REQUIRE(descriptors.size() % kSiftDescriptorSize == 0,
               "cannot write the descriptors of image "
                   << image_id << " to " << internal::DatabaseSubject(path_) << ": they hold "
                   << descriptors.size() << " bytes, not a multiple of " << kSiftDescriptorSize);
  SqliteStatement& write = statements_->write->write_descriptors;
  write.BindInt64(1, image_id);
  write.BindInt64(2, static_cast<int64_t>(descriptors.size() / kSiftDescriptorSize));
  write.BindInt64(3, kSiftDescriptorSize);
  write.BindBlob(4, descriptors.data(), descriptors.size());
  write.Run("write the descriptors of image " + std::to_string(image_id));
}

bool SceneDatabase::HasKeypoints(int image_id) const {
  StatementUse row(&statements_->has_keypoints);
  row->BindInt64(1, image_id);
  return row->Step("look up keypoints");
}

std::vector<Keypoint> SceneDatabase::ReadKeypoints(int image_id) const {
  return ReadImageBlob(&statements_->read_keypoints, image_id, path_, "keypoints",
                       internal::KeypointsFromBlob);
}

std::vector<uint8_t> SceneDatabase::ReadDescriptors(int image_id) const {
  return ReadImageBlob(&statements_->read_descriptors, image_id, path_, "descriptors",
                       internal::DescriptorsFromBlob);
}

void SceneDatabase::CopyFeatures(const SceneDatabase& from, int from_image_id, int image_id) {
  RequireWritable("copy features");
  const std::string action = "copy the features of image " + std::to_string(from_image_id) + " of " +
                             internal::DatabaseSubject(from.path_);
  internal::AtomicWrite atomic(statements_->write.get());
  const std::pair<SqliteStatement*, SqliteStatement*> tables[] = {
      {&from.statements_->read_keypoints, &statements_->write->write_keypoints},
      {&from.statements_->read_descriptors, &statements_->write->write_descriptors}};
  for (const auto& [read, write] : tables) {
    StatementUse row(read);
    row->BindInt64(1, from_image_id);
    if (!row->Step(action)) continue;
    write->BindInt64(1, image_id);
    write->BindInt64(2, row->ColumnInt64(0));
    write->BindInt64(3, row->ColumnInt64(1));
    const void* data = row->ColumnBlob(2);
    write->BindBlob(4, data, static_cast<size_t>(row->ColumnBytes(2)));
    write->Run(action);
  }
  atomic.Release();
}

void SceneDatabase::CopyPair(const SceneDatabase& from, int from_id1, int from_id2, int image_id1,
                             int image_id2) {
  RequireWritable("copy a pair");
  RequirePair(image_id1, image_id2, path_);
  PROJ_CHECK((from_id1 < from_id2) == (image_id1 < image_id2), "CopyPair would swap the pair");
  const int64_t from_pair = PairIdFromImageIds(from_id1, from_id2);
  const std::string action = "copy the pair of " + PairText(from_id1, from_id2) + " of " +
                             internal::DatabaseSubject(from.path_);
  internal::AtomicWrite atomic(statements_->write.get());
  {
    StatementUse row(&from.statements_->read_matches);
    row->BindInt64(1, from_pair);
    if (row->Step(action)) {
      SqliteStatement& write = statements_->write->write_matches;
      write.BindInt64(1, PairIdFromImageIds(image_id1, image_id2));
      write.BindInt64(2, row->ColumnInt64(0));
      write.BindInt64(3, row->ColumnInt64(1));
      const void* data = row->ColumnBlob(2);
      write.BindBlob(4, data, static_cast<size_t>(row->ColumnBytes(2)));
      write.Run(action);
    }
  }
  StatementUse row(&from.statements_->read_geometry);
  row->BindInt64(1, from_pair);
  if (row->Step(action)) {
    // Columns pair_id, rows, cols, data, config, F, E, H, qvec, tvec.
    SqliteStatement& write = statements_->write->write_geometry;
    write.BindInt64(1, PairIdFromImageIds(image_id1, image_id2));
    for (int column : {1, 2, 4}) write.BindInt64(column + 1, row->ColumnInt64(column));
    for (int column : {3, 5, 6, 7, 8, 9}) {
      if (row->ColumnIsNull(column)) {  // no pose (COLMAP writes NULL)
        write.BindNull(column + 1);
        continue;
      }
      const void* data = row->ColumnBlob(column);
      write.BindBlob(column + 1, data, static_cast<size_t>(row->ColumnBytes(column)));
    }
    write.Run(action);
  }
  atomic.Release();
}

void SceneDatabase::DeleteFeatures(int image_id) {
  RequireWritable("delete features");
  internal::WriteStatements& write = *statements_->write;
  const std::string action = "delete the features of image " + std::to_string(image_id);
  internal::AtomicWrite atomic(&write);
  internal::DeletePairsOfImage(&write, image_id, action);
  // The KLT count describes the keypoint list, so it goes with it.
  for (SqliteStatement* statement :
       {&write.delete_keypoints, &write.delete_descriptors, &write.delete_klt_count}) {
    statement->BindInt64(1, image_id);
    statement->Run(action);
  }
  atomic.Release();
}

void SceneDatabase::WriteMatches(int image_id1, int image_id2,
                                 const std::vector<FeatureMatch>& matches) {
  RequireWritable("write matches");
  RequirePair(image_id1, image_id2, path_);
  const std::vector<uint32_t> blob =
      MatchesBlob(matches, image_id1 > image_id2, "matches", image_id1, image_id2, path_);
  SqliteStatement& write = statements_->write->write_matches;
  write.BindInt64(1, PairIdFromImageIds(image_id1, image_id2));
  write.BindInt64(2, static_cast<int64_t>(matches.size()));
  write.BindInt64(3, 2);
  write.BindBlob(4, blob.data(), blob.size() * sizeof(uint32_t));
  write.Run("write the matches of " + PairText(image_id1, image_id2));
}

std::optional<std::vector<FeatureMatch>> SceneDatabase::ReadMatches(int image_id1,
                                                                    int image_id2) const {
  RequirePair(image_id1, image_id2, path_);
  const int64_t pair_id = PairIdFromImageIds(image_id1, image_id2);
  StatementUse row(&statements_->read_matches);
  row->BindInt64(1, pair_id);
  if (!row->Step("read matches")) return std::nullopt;
  return internal::MatchesFromBlob(MatrixBlobAt(*row, 0), image_id1 > image_id2,
                                   RowOrigin{path_, "matches", "pair_id", pair_id});
}

std::vector<int64_t> SceneDatabase::ReadMatchedPairIds() const {
  return ReadPairIds(&statements_->matched_pair_ids, "list the matched pairs");
}

void SceneDatabase::WriteTwoViewGeometry(int image_id1, int image_id2,
                                         const TwoViewGeometry& geometry) {
  RequireWritable("write a two-view geometry");
  RequirePair(image_id1, image_id2, path_);
  // Stored from the smaller to the larger id, as COLMAP does.
  const TwoViewGeometry stored =
      image_id1 < image_id2 ? geometry : internal::InvertTwoViewGeometry(geometry);
  const std::vector<uint32_t> inliers = MatchesBlob(stored.inlier_matches, false, "inlier matches",
                                                    image_id1, image_id2, path_);
  const RowMajorMatrix3d F = stored.F, E = stored.E, H = stored.H;
  const Eigen::Quaterniond& rotation = stored.cam2_from_cam1.rotation;
  const Eigen::Vector4d qvec(rotation.w(), rotation.x(), rotation.y(), rotation.z());
  const Eigen::Vector3d& tvec = stored.cam2_from_cam1.translation;

  SqliteStatement& write = statements_->write->write_geometry;
  write.BindInt64(1, PairIdFromImageIds(image_id1, image_id2));
  write.BindInt64(2, static_cast<int64_t>(stored.inlier_matches.size()));
  write.BindInt64(3, 2);
  write.BindBlob(4, inliers.data(), inliers.size() * sizeof(uint32_t));
  write.BindInt64(5, internal::ColmapTwoViewConfiguration(stored.configuration));
  write.BindBlob(6, F.data(), 9 * sizeof(double));
  write.BindBlob(7, E.data(), 9 * sizeof(double));
  write.BindBlob(8, H.data(), 9 * sizeof(double));
  if (stored.has_relative_pose) {
    write.BindBlob(9, qvec.data(), 4 * sizeof(double));
    write.BindBlob(10, tvec.data(), 3 * sizeof(double));
  } else {
    write.BindNull(9);
    write.BindNull(10);
  }
  write.Run("write the two-view geometry of " + PairText(image_id1, image_id2));
}

std::optional<TwoViewGeometry> SceneDatabase::ReadTwoViewGeometry(int image_id1,
                                                                  int image_id2) const {
  RequirePair(image_id1, image_id2, path_);
  StatementUse row(&statements_->read_geometry);
  row->BindInt64(1, PairIdFromImageIds(image_id1, image_id2));
  if (!row->Step("read a two-view geometry")) return std::nullopt;
  const TwoViewGeometry geometry = GeometryFromRow(*row, path_);
  if (image_id1 < image_id2) return geometry;
  return internal::InvertTwoViewGeometry(geometry);
}

std::vector<std::pair<int64_t, TwoViewGeometry>> SceneDatabase::ReadTwoViewGeometries() const {
  StatementUse row(&statements_->read_geometries);
  std::vector<std::pair<int64_t, TwoViewGeometry>> geometries;
  while (row->Step("read the two-view geometries")) {
    geometries.emplace_back(row->ColumnInt64(0), GeometryFromRow(*row, path_));
  }
  return geometries;
}

std::vector<SceneDatabase::VerifiedPairSize> SceneDatabase::ReadVerifiedPairSizes() const {
  StatementUse row(&statements_->verified_pair_sizes);
  std::vector<VerifiedPairSize> sizes;
  while (row->Step("read the two-view geometries' sizes")) {
    const RowOrigin origin{path_, "two_view_geometries", "pair_id", row->ColumnInt64(0)};
    sizes.push_back({row->ColumnInt64(0), static_cast<int>(row->ColumnInt64(1)),
                     internal::TwoViewConfigurationFromColmap(row->ColumnInt64(2), origin)});
  }
  return sizes;
}

std::vector<int64_t> SceneDatabase::ReadVerifiedPairIds() const {
  return ReadPairIds(&statements_->verified_pair_ids, "list the verified pairs");
}

void SceneDatabase::DeleteAllMatches() {
  RequireWritable("delete the matches");
  statements_->write->delete_all_matches.Run("delete the matches");
  statements_->write->delete_all_geometries.Run("delete the two-view geometries");
}

void SceneDatabase::DeleteTwoViewGeometries() {
  RequireWritable("delete the two-view geometries");
  statements_->write->delete_all_geometries.Run("delete the two-view geometries");
}

}  // namespace proj
