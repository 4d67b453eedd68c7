#include "sfm/database/sqlite_statement.h"

#include <sqlite3.h>

#include "core/check.h"

namespace proj::internal {

std::string DatabaseSubject(const std::string& path) { return "scene database '" + path + "'"; }

void ThrowSqliteError(sqlite3* db, int rc, const std::string& path, std::string_view action) {
  // sqlite3_errmsg describes the connection's last failure, which is `rc` when we are called
  // right after it; without a connection only the code's generic text is known.
  const std::string reason = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  const std::string subject = DatabaseSubject(path);
  const std::string what = std::string(action);
  if (rc == SQLITE_READONLY_ROLLBACK || rc == SQLITE_READONLY_RECOVERY) {
    // A process was killed in the middle of a write; recovery writes the file, which a
    // read-only connection may not do.
    throw InputError(subject + " was left in the middle of a write by a process that stopped "
                     "(SQLite: " + reason + "); open it read-write once (any step that writes "
                     "to it) to restore its last committed state");
  }
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw InputError(subject + " is in use by another process (SQLite: " + reason +
                       ", on trying to " + what +
                       "); wait until that process ends or point --database elsewhere");
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      throw InputError(subject + " is corrupt (SQLite: " + reason + ", on trying to " + what +
                       "); " + kUnusableDatabaseAdvice);
    case SQLITE_FULL:
      throw InputError("cannot " + what + " in " + subject + ": the disk is full (SQLite: " +
                       reason + ")");
    case SQLITE_READONLY:
      throw InputError("cannot " + what + " in " + subject +
                       ": the file or its folder is not writable (SQLite: " + reason + ")");
    default:
      throw InputError("cannot " + what + " in " + subject + " (SQLite: " + reason + ")");
  }
}

void ExecSql(sqlite3* db, const std::string& path, const char* sql, std::string_view action) {
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) ThrowSqliteError(db, rc, path, action);
}

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& path, const std::string& sql)
    : db_(db), path_(path) {
  const int rc = sqlite3_prepare_v3(db, sql.c_str(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &statement_, nullptr);
  if (rc == SQLITE_OK) return;
  sqlite3_finalize(statement_);
  const int primary = rc & 0xff;
  if (primary == SQLITE_ERROR) {
    // Our statements are fixed, so a statement that does not prepare means tables of a
    // layout we do not know (a column missing, a table of the same name but other use).
    throw InputError(DatabaseSubject(path) + " has tables of a layout this program does not know (SQLite: " +
                     sqlite3_errmsg(db) + ", in \"" + sql + "\"); " + kUnusableDatabaseAdvice);
  }
  ThrowSqliteError(db, rc, path, "prepare \"" + sql + "\"");
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

void SqliteStatement::BindInt64(int index, int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
}

void SqliteStatement::BindDouble(int index, double value) {
  sqlite3_bind_double(statement_, index, value);
}

void SqliteStatement::BindText(int index, const std::string& text) {
  sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

void SqliteStatement::BindBlob(int index, const void* data, size_t num_bytes) {
  // An empty vector's data() may be null, which SQLite would store as NULL instead of the
  // empty blob COLMAP writes for an empty list.
  if (num_bytes == 0) {
    sqlite3_bind_zeroblob(statement_, index, 0);
  } else {
    sqlite3_bind_blob64(statement_, index, data, num_bytes, SQLITE_STATIC);
  }
}

void SqliteStatement::BindNull(int index) { sqlite3_bind_null(statement_, index); }

bool SqliteStatement::Step(std::string_view action) {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  ThrowSqliteError(db_, rc, path_, action);
}

void SqliteStatement::Run(std::string_view action) {
  StatementUse use(this);  // the error message is read before the reset
  Step(action);
}

bool SqliteStatement::IsNull(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int64_t SqliteStatement::ColumnInt64(int column) const {
  return sqlite3_column_int64(statement_, column);
}

double SqliteStatement::ColumnDouble(int column) const {
  return sqlite3_column_double(statement_, column);
}

std::string SqliteStatement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  if (text == nullptr) return std::string();
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
}

const void* SqliteStatement::ColumnBlob(int column) const {
  return sqlite3_column_blob(statement_, column);
}

int64_t SqliteStatement::ColumnBytes(int column) const {
  return sqlite3_column_bytes(statement_, column);
}

bool SqliteStatement::ColumnIsNull(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int64_t SqliteStatement::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }

int64_t SqliteStatement::NumChanges() const { return sqlite3_changes64(db_); }

void SqliteStatement::Reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

}  // namespace proj::internal
