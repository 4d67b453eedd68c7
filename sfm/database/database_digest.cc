#include "sfm/database/database_digest.h"

#include <sqlite3.h>

#include <algorithm>
#include <sstream>

#include "core/check.h"

namespace proj {
namespace {

constexpr uint64_t kFnvOffset = 1469598103934665603ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

void Mix(uint64_t* hash, const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    *hash ^= bytes[i];
    *hash *= kFnvPrime;
  }
}

template <typename T>
void MixValue(uint64_t* hash, T value) {
  Mix(hash, &value, sizeof(value));
}

struct Connection {
  sqlite3* db = nullptr;
  ~Connection() { sqlite3_close(db); }
};

struct Statement {
  sqlite3_stmt* statement = nullptr;
  ~Statement() { sqlite3_finalize(statement); }
};

void Prepare(sqlite3* db, const std::string& path, const std::string& sql, Statement* statement) {
  const int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement->statement, nullptr);
  PROJ_REQUIRE(rc == SQLITE_OK, "scene database '" << path << "': cannot read it (" << sqlite3_errmsg(db)
                                                   << ")");
}

bool HasTable(sqlite3* db, const std::string& path, const std::string& table) {
  Statement statement;
  Prepare(db, path, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'",
          &statement);
  return sqlite3_step(statement.statement) == SQLITE_ROW;
}

TableDigest DigestTable(sqlite3* db, const std::string& path, const std::string& table,
                        const std::string& key_column) {
  TableDigest digest{table, key_column, {}};
  if (!HasTable(db, path, table)) return digest;
  Statement statement;
  Prepare(db, path, "SELECT " + key_column + ", * FROM " + table + " ORDER BY " + key_column, &statement);
  int rc = SQLITE_OK;
  while ((rc = sqlite3_step(statement.statement)) == SQLITE_ROW) {
    uint64_t hash = kFnvOffset;
    const int columns = sqlite3_column_count(statement.statement);
    for (int c = 1; c < columns; ++c) {
      const int type = sqlite3_column_type(statement.statement, c);
      MixValue(&hash, type);
      if (type == SQLITE_INTEGER) {
        MixValue(&hash, static_cast<int64_t>(sqlite3_column_int64(statement.statement, c)));
      } else if (type == SQLITE_FLOAT) {
        MixValue(&hash, sqlite3_column_double(statement.statement, c));
      } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        const void* data = type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_column_text(statement.statement, c))
                                               : sqlite3_column_blob(statement.statement, c);
        const int64_t size = sqlite3_column_bytes(statement.statement, c);
        MixValue(&hash, size);
        Mix(&hash, data, static_cast<size_t>(size));
      }
    }
    digest.rows.emplace_back(sqlite3_column_int64(statement.statement, 0), hash);
  }
  PROJ_REQUIRE(rc == SQLITE_DONE, "scene database '" << path << "': cannot read table " << table << " ("
                                                     << sqlite3_errmsg(db) << ")");
  return digest;
}

}  // namespace

uint64_t TableDigest::Hash() const {
  uint64_t hash = kFnvOffset;
  for (const auto& [key, row] : rows) {
    MixValue(&hash, key);
    MixValue(&hash, row);
  }
  return hash;
}

std::vector<TableDigest> DigestSceneDatabase(const std::string& path) {
  Connection connection;
  const int rc = sqlite3_open_v2(path.c_str(), &connection.db, SQLITE_OPEN_READONLY, nullptr);
  PROJ_REQUIRE(rc == SQLITE_OK, "scene database '" << path << "': cannot open it ("
                                                   << (connection.db ? sqlite3_errmsg(connection.db) : "out of memory")
                                                   << ")");
  const std::pair<const char*, const char*> tables[] = {
      {"cameras", "camera_id"}, {"images", "image_id"},  {"keypoints", "image_id"},
      {"descriptors", "image_id"}, {"matches", "pair_id"}, {"two_view_geometries", "pair_id"},
      {"pose_priors", "image_id"}};
  std::vector<TableDigest> digests;
  for (const auto& [table, key] : tables) digests.push_back(DigestTable(connection.db, path, table, key));
  return digests;
}

std::string CompareDigests(const std::vector<TableDigest>& a, const std::vector<TableDigest>& b) {
  PROJ_CHECK(a.size() == b.size(), "digests of different table lists");
  std::ostringstream out;
  for (size_t t = 0; t < a.size(); ++t) {
    const TableDigest& x = a[t];
    const TableDigest& y = b[t];
    if (x.rows == y.rows) continue;
    out << x.table << ": " << x.rows.size() << " vs " << y.rows.size() << " rows";
    size_t i = 0;
    while (i < x.rows.size() && i < y.rows.size() && x.rows[i] == y.rows[i]) ++i;
    if (i < x.rows.size() && i < y.rows.size()) {
      if (x.rows[i].first == y.rows[i].first) {
        out << ", first difference at " << x.key_column << " " << x.rows[i].first;
      } else {
        out << ", " << x.key_column << " " << std::min(x.rows[i].first, y.rows[i].first)
            << " only on one side";
      }
    } else {
      out << ", " << x.key_column << " "
          << (i < x.rows.size() ? x.rows[i].first : y.rows[i].first) << " only on one side";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace proj
