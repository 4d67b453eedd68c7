// A thin RAII layer over SQLite for the scene database: prepared statements that finalize
// themselves, reset when a use ends (even by an exception, so no read transaction stays
// open), and turn every SQLite failure into an InputError that names the database file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace proj::internal {

// "scene database '<path>'", the subject of every error message.
std::string DatabaseSubject(const std::string& path);
// The advice closing messages about a file that cannot be used.
inline constexpr const char* kUnusableDatabaseAdvice =
    "it cannot be used: remove it or point --database elsewhere";

// Throws the InputError for SQLite result code `rc` (extended codes allowed) met while
// `action` ("read the keypoints of image 3"). Busy or locked: in use by another process;
// corrupt or not a database: corrupt file; anything else: SQLite's own message.
[[noreturn]] void ThrowSqliteError(sqlite3* db, int rc, const std::string& path,
                                   std::string_view action);

// Runs SQL without results (PRAGMA, BEGIN, CREATE), throwing as ThrowSqliteError does.
void ExecSql(sqlite3* db, const std::string& path, const char* sql, std::string_view action);

class SqliteStatement {
 public:
  // Prepares `sql` once; a statement that does not prepare means tables of another layout.
  SqliteStatement(sqlite3* db, const std::string& path, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Parameters are 1-based, as in SQLite. Blobs and text are copied by SQLite only when
  // the statement is stepped, so they must outlive the step (SQLITE_STATIC).
  void BindInt64(int index, int64_t value);
  void BindDouble(int index, double value);
  void BindText(int index, const std::string& text);
  void BindBlob(int index, const void* data, size_t num_bytes);  // an empty blob, not NULL
  void BindNull(int index);

  // One step: true for a row, false when done; any failure throws naming `action`.
  bool Step(std::string_view action);
  // Runs a statement that returns no rows, then resets it (also when it fails).
  void Run(std::string_view action);

  // Columns are 0-based, as in SQLite.
  bool IsNull(int column) const;
  int64_t ColumnInt64(int column) const;
  double ColumnDouble(int column) const;
  std::string ColumnText(int column) const;
  const void* ColumnBlob(int column) const;  // call before ColumnBytes (SQLite's rule)
  int64_t ColumnBytes(int column) const;
  bool ColumnIsNull(int column) const;

  // Of the connection's last INSERT, UPDATE or DELETE.
  int64_t LastInsertRowId() const;
  int64_t NumChanges() const;

  // Ends the current use: resets the statement and clears its bindings.
  void Reset();

 private:
  sqlite3* db_;
  std::string path_;
  sqlite3_stmt* statement_ = nullptr;
};

// Resets a statement when the scope of one use ends, however it ends.
class StatementUse {
 public:
  explicit StatementUse(SqliteStatement* statement) : statement_(statement) {}
  ~StatementUse() { statement_->Reset(); }
  StatementUse(const StatementUse&) = delete;
  StatementUse& operator=(const StatementUse&) = delete;
  SqliteStatement* operator->() const { return statement_; }
  SqliteStatement& operator*() const { return *statement_; }

 private:
  SqliteStatement* statement_;
};

}  // namespace proj::internal
