#include "io/file_bytes.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/check.h"

namespace proj {
namespace fs = std::filesystem;

std::vector<uint8_t> ReadFilePrefix(const std::string& path, size_t max_bytes,
                                    size_t* file_size) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  PROJ_REQUIRE(!error || error == std::errc::no_such_file_or_directory,
               "'" << path << "': cannot open (" << error.message() << ")");
  PROJ_REQUIRE(fs::exists(status), "'" << path << "': file not found");
  PROJ_REQUIRE(!fs::is_directory(status), "'" << path << "': is a folder, not a file");
  std::ifstream stream(path, std::ios::binary);
  PROJ_REQUIRE(stream.good(), "'" << path << "': cannot open (" << std::strerror(errno) << ")");
  stream.seekg(0, std::ios::end);
  const std::streamoff end = stream.tellg();
  PROJ_REQUIRE(end >= 0, "'" << path << "': cannot determine the file size");
  stream.seekg(0, std::ios::beg);
  const size_t size = static_cast<size_t>(end);
  if (file_size != nullptr) *file_size = size;
  std::vector<uint8_t> bytes(std::min(size, max_bytes));
  if (!bytes.empty()) {
    stream.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    PROJ_REQUIRE(stream.gcount() == static_cast<std::streamsize>(bytes.size()),
                 "'" << path << "': read error (" << std::strerror(errno) << ")");
  }
  return bytes;
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  return ReadFilePrefix(path, static_cast<size_t>(-1));
}

}  // namespace proj
