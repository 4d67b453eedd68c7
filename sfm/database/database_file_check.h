// Checks of a scene database file before SQLite opens it. SQLite itself accepts a truncated
// file and only fails (or silently misses rows) when a query reaches a missing page, so the
// file's size is compared with the size its header records.
#pragma once

#include <string>

namespace proj::internal {

enum class DatabaseFileState {
  kMissing,  // no file at the path (SQLite creates one)
  kEmpty,    // 0 bytes (SQLite treats it as a new database)
  kSqlite,   // an SQLite file that is at least as long as its header says
};

// Throws InputError naming `path` when it is a directory, not an SQLite file, or truncated.
DatabaseFileState CheckDatabaseFile(const std::string& path);

// "2.1 MB", "14.0 kB", "512 bytes": sizes in messages.
std::string FormatByteCount(long long num_bytes);

}  // namespace proj::internal
