#include "tests/sfm/database/database_test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <Eigen/Geometry>

#include <fstream>
#include <random>
#include <sstream>

#include "core/check.h"
#include "tests/support/test_data.h"

namespace proj::testing {

RawDatabase::RawDatabase(const std::string& path) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                 nullptr);
  EXPECT_EQ(rc, SQLITE_OK) << sqlite3_errstr(rc);
}

RawDatabase::~RawDatabase() { sqlite3_close_v2(db_); }

void RawDatabase::Exec(const std::string& sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (error ? error : "");
  sqlite3_free(error);
}

std::string RawDatabase::QueryText(const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr), SQLITE_OK)
      << sql << ": " << sqlite3_errmsg(db_);
  std::string text;
  if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_type(statement, 0) != SQLITE_NULL) {
    text = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  }
  sqlite3_finalize(statement);
  return text;
}

int64_t RawDatabase::QueryInt(const std::string& sql) {
  const std::string text = QueryText(sql);
  return text.empty() ? 0 : std::stoll(text);
}

void RawDatabase::InsertBlobRow(const std::string& table, const std::string& key_column,
                                int64_t key, int64_t rows, int64_t cols, const void* data,
                                size_t num_bytes) {
  const std::string sql = "INSERT OR REPLACE INTO " + table + "(" + key_column +
                          ", rows, cols, data) VALUES(?, ?, ?, ?);";
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db_);
  sqlite3_bind_int64(statement, 1, key);
  sqlite3_bind_int64(statement, 2, rows);
  sqlite3_bind_int64(statement, 3, cols);
  sqlite3_bind_blob64(statement, 4, data, num_bytes, SQLITE_TRANSIENT);
  EXPECT_EQ(sqlite3_step(statement), SQLITE_DONE) << sqlite3_errmsg(db_);
  sqlite3_finalize(statement);
}

std::string TempDatabasePath(const std::string& test_name) {
  return MakeTempDir("scene_database/" + test_name) + "/scene.db";
}

std::string InputErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

std::vector<Keypoint> MakeKeypoints(int count, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(0.0f, 4000.0f);
  std::uniform_real_distribution<float> scale(0.8f, 30.0f);
  std::uniform_real_distribution<float> orientation(0.0f, 6.2831f);
  std::vector<Keypoint> keypoints(count);
  for (Keypoint& keypoint : keypoints) {
    keypoint.x = position(rng);
    keypoint.y = position(rng);
    keypoint.scale = scale(rng);
    keypoint.orientation = orientation(rng);
  }
  return keypoints;
}

std::vector<uint8_t> MakeDescriptors(int count, int seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> descriptors(static_cast<size_t>(count) * kSiftDescriptorSize);
  for (uint8_t& value : descriptors) value = static_cast<uint8_t>(rng() & 0xff);
  return descriptors;
}

std::vector<FeatureMatch> MakeMatches(int count, int seed) {
  std::mt19937 rng(seed);
  std::vector<FeatureMatch> matches(count);
  for (FeatureMatch& match : matches) {
    match.index1 = static_cast<int>(rng() % 5000);
    match.index2 = static_cast<int>(rng() % 5000);
  }
  return matches;
}

TwoViewGeometry MakeGeometry(int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const auto random_matrix = [&] {
    Eigen::Matrix3d matrix;
    for (int i = 0; i < 9; ++i) matrix(i / 3, i % 3) = value(rng);
    return matrix;
  };
  TwoViewGeometry geometry;
  geometry.configuration = TwoViewConfiguration::kCalibrated;
  geometry.inlier_matches = MakeMatches(50, seed);
  geometry.F = random_matrix();
  geometry.E = random_matrix();
  geometry.H = random_matrix() + 3 * Eigen::Matrix3d::Identity();
  geometry.has_relative_pose = true;
  const Eigen::Vector3d axis(value(rng), value(rng), value(rng));
  geometry.cam2_from_cam1 =
      Rigid3d(Eigen::Quaterniond(Eigen::AngleAxisd(0.3 + value(rng), axis.normalized())),
              Eigen::Vector3d(value(rng), value(rng), value(rng)).normalized());
  return geometry;
}

std::vector<FeatureMatch> SwappedMatches(std::vector<FeatureMatch> matches) {
  for (FeatureMatch& match : matches) std::swap(match.index1, match.index2);
  return matches;
}

void ExpectMatchesEqual(const std::vector<FeatureMatch>& a, const std::vector<FeatureMatch>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index1, b[i].index1) << i;
    EXPECT_EQ(a[i].index2, b[i].index2) << i;
  }
}

void ExpectGeometriesNear(const TwoViewGeometry& a, const TwoViewGeometry& b) {
  EXPECT_EQ(a.configuration, b.configuration);
  ExpectMatchesEqual(a.inlier_matches, b.inlier_matches);
  EXPECT_LT((a.F - b.F).norm(), 1e-12);
  EXPECT_LT((a.E - b.E).norm(), 1e-12);
  EXPECT_LT((a.H - b.H).norm(), 1e-9);
  ASSERT_EQ(a.has_relative_pose, b.has_relative_pose);
  if (!a.has_relative_pose) return;
  EXPECT_LT(a.cam2_from_cam1.rotation.angularDistance(b.cam2_from_cam1.rotation), 1e-12);
  EXPECT_LT((a.cam2_from_cam1.translation - b.cam2_from_cam1.translation).norm(), 1e-12);
}

void AddImages(SceneDatabase* database, int num_images) {
  const int camera =
      database->AddCamera(Camera::FromFocal(CameraModelId::kSimpleRadial, 4000, 4000, 3000), true);
  for (int i = 0; i < num_images; ++i) database->AddImage(std::to_string(i) + ".jpg", camera);
}

std::string SqlBlob(const void* data, size_t num_bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string literal = "x'";
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < num_bytes; ++i) {
    literal += kHex[bytes[i] >> 4];
    literal += kHex[bytes[i] & 15];
  }
  return literal + "'";
}

void WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

}  // namespace proj::testing
