// Helpers of the scene database tests: raw SQLite access (to write rows as COLMAP or another
// program would) and deterministic feature data.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "features/feature_types.h"
#include "matching/matching_types.h"
#include "matching/two_view_geometry.h"
#include "sfm/database/scene_database.h"

struct sqlite3;

namespace proj::testing {

// A plain SQLite connection to a file, outside SceneDatabase.
class RawDatabase {
 public:
  explicit RawDatabase(const std::string& path);
  ~RawDatabase();
  RawDatabase(const RawDatabase&) = delete;
  RawDatabase& operator=(const RawDatabase&) = delete;

  void Exec(const std::string& sql);  // fails the test on an SQLite error
  // The first column of the first row of `sql`, as text ("" when no row or NULL).
  std::string QueryText(const std::string& sql);
  int64_t QueryInt(const std::string& sql);
  // Inserts a rows x cols blob row into keypoints/descriptors/matches-like tables.
  void InsertBlobRow(const std::string& table, const std::string& key_column, int64_t key,
                     int64_t rows, int64_t cols, const void* data, size_t num_bytes);
  sqlite3* handle() { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

// `database`'s file in a fresh folder for this test.
std::string TempDatabasePath(const std::string& test_name);

// The InputError message of `action`, or "" when it throws none.
std::string InputErrorOf(const std::function<void()>& action);

std::vector<Keypoint> MakeKeypoints(int count, int seed);
std::vector<uint8_t> MakeDescriptors(int count, int seed);
std::vector<FeatureMatch> MakeMatches(int count, int seed);

// A geometry with every field set (random F, E, invertible H, a pose, 50 inlier matches).
TwoViewGeometry MakeGeometry(int seed);
std::vector<FeatureMatch> SwappedMatches(std::vector<FeatureMatch> matches);
void ExpectMatchesEqual(const std::vector<FeatureMatch>& a, const std::vector<FeatureMatch>& b);
void ExpectGeometriesNear(const TwoViewGeometry& a, const TwoViewGeometry& b);

// One camera and images named 0.jpg, 1.jpg, ... (ids 1, 2, ...).
void AddImages(SceneDatabase* database, int num_images);

// An SQL blob literal x'..' of the bytes.
std::string SqlBlob(const void* data, size_t num_bytes);

void WriteFileBytes(const std::string& path, const std::string& bytes);
std::string ReadFileBytes(const std::string& path);

}  // namespace proj::testing
