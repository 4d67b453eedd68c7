#include "sfm/database/database_file_check.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/check.h"
#include "sfm/database/sqlite_statement.h"

namespace proj::internal {
namespace {

namespace fs = std::filesystem;

// The database header (https://www.sqlite.org/fileformat.html#the_database_header).
constexpr size_t kHeaderSize = 100;
constexpr char kMagic[] = "SQLite format 3";  // 16 bytes with the terminating zero

uint32_t ReadBigEndian32(const unsigned char* bytes) {
  return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
         uint32_t{bytes[3]};
}

// A hot rollback journal (a process killed during a commit) or a WAL file with frames
// holds pages the main file may not have yet; SQLite restores them on opening, so the main
// file's size proves nothing then. A journal whose header was zeroed (exclusive locking
// mode keeps the file) is not hot.
bool HasRecoveryFile(const std::string& path) {
  constexpr unsigned char kJournalMagic[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
  constexpr uintmax_t kWalHeaderSize = 32;
  std::error_code error;
  const uintmax_t wal_size = fs::file_size(path + "-wal", error);
  if (!error && wal_size > kWalHeaderSize) return true;
  unsigned char journal_start[sizeof(kJournalMagic)] = {};
  std::ifstream journal(path + "-journal", std::ios::binary);
  journal.read(reinterpret_cast<char*>(journal_start), sizeof(journal_start));
  return journal.gcount() == sizeof(journal_start) &&
         std::memcmp(journal_start, kJournalMagic, sizeof(kJournalMagic)) == 0;
}

}  // namespace

std::string FormatByteCount(long long num_bytes) {
  char text[32];
  if (num_bytes >= 1000000) {
    std::snprintf(text, sizeof(text), "%.1f MB", num_bytes / 1e6);
  } else if (num_bytes >= 1000) {
    std::snprintf(text, sizeof(text), "%.1f kB", num_bytes / 1e3);
  } else {
    std::snprintf(text, sizeof(text), "%lld bytes", num_bytes);
  }
  return text;
}

DatabaseFileState CheckDatabaseFile(const std::string& path) {
  const std::string subject = DatabaseSubject(path);
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) return DatabaseFileState::kMissing;
  PROJ_REQUIRE(status.type() != fs::file_type::directory,
               subject << " is a directory, not a database file; point --database at a file");
  const uintmax_t file_size = fs::file_size(path, error);
  PROJ_REQUIRE(!error, "cannot read " << subject << ": " << error.message());
  if (file_size == 0) return DatabaseFileState::kEmpty;

  std::array<unsigned char, kHeaderSize> header{};
  std::ifstream file(path, std::ios::binary);
  PROJ_REQUIRE(file.good(), "cannot read " << subject << ": it cannot be opened for reading");
  file.read(reinterpret_cast<char*>(header.data()), header.size());
  const size_t num_read = static_cast<size_t>(file.gcount());
  // A file shorter than the magic string is not taken for a cut SQLite file.
  const bool magic_matches =
      num_read >= sizeof(kMagic) && std::memcmp(header.data(), kMagic, sizeof(kMagic)) == 0;
  PROJ_REQUIRE(magic_matches, subject << " is not an SQLite database (it does not start with "
                                         "SQLite's header); " << kUnusableDatabaseAdvice);
  PROJ_REQUIRE(num_read == kHeaderSize,
               subject << " is truncated (" << FormatByteCount(num_read)
                       << ", shorter than SQLite's 100-byte header); " << kUnusableDatabaseAdvice);

  const uint32_t page_size_field = (uint32_t{header[16]} << 8) | header[17];
  const uint32_t page_size = page_size_field == 1 ? 65536 : page_size_field;
  const bool page_size_valid =
      page_size >= 512 && page_size <= 65536 && (page_size & (page_size - 1)) == 0;
  PROJ_REQUIRE(page_size_valid, subject << " is corrupt (its header gives a page size of "
                                        << page_size_field << " bytes); "
                                        << kUnusableDatabaseAdvice);

  // The page count at bytes 28-31 is only valid when the "version-valid-for" number at
  // 92-95 equals the change counter at 24-27 (older SQLite versions left it stale).
  const uint32_t change_counter = ReadBigEndian32(&header[24]);
  const uint32_t page_count = ReadBigEndian32(&header[28]);
  const uint32_t valid_for = ReadBigEndian32(&header[92]);
  if (page_count > 0 && valid_for == change_counter && !HasRecoveryFile(path)) {
    const uintmax_t recorded_size = uintmax_t{page_count} * page_size;
    PROJ_REQUIRE(file_size >= recorded_size,
                 subject << " is truncated (" << FormatByteCount(static_cast<long long>(file_size))
                         << " of the " << FormatByteCount(static_cast<long long>(recorded_size))
                         << " its header records); " << kUnusableDatabaseAdvice);
  }
  return DatabaseFileState::kSqlite;
}

}  // namespace proj::internal
