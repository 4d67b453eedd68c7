#include "io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "core/check.h"

namespace proj {
namespace fs = std::filesystem;

namespace {

std::string TemporaryPathFor(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

void MoveIntoPlace(const std::string& temp, const std::string& path) {
  std::error_code error;
  fs::rename(temp, path, error);
  if (error) {
    std::remove(temp.c_str());
    PROJ_REQUIRE(false, "cannot move '" << temp << "' to '" << path << "': " << error.message());
  }
}

}  // namespace

void WriteFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                         bool binary) {
  const std::string temp = TemporaryPathFor(path);
  {
    std::ofstream stream(temp, binary ? std::ios::out | std::ios::binary | std::ios::trunc
                                      : std::ios::out | std::ios::trunc);
    PROJ_REQUIRE(stream.good(), "cannot write '" << path << "': " << std::strerror(errno));
    try {
      write(stream);
    } catch (...) {
      stream.close();
      std::remove(temp.c_str());
      throw;
    }
    stream.flush();
    if (!stream.good()) {
      const std::string reason = std::strerror(errno);
      stream.close();
      std::remove(temp.c_str());
      PROJ_REQUIRE(false, "writing '" << path << "' failed: " << reason);
    }
  }
  MoveIntoPlace(temp, path);
}

void WriteFileAtomicallyAt(const std::string& path, const std::function<void(const std::string&)>& write) {
  const std::string temp = TemporaryPathFor(path);
  try {
    write(temp);
  } catch (...) {
    std::remove(temp.c_str());
    throw;
  }
  PROJ_REQUIRE(fs::exists(temp), "writing '" << path << "' failed: no file was written");
  MoveIntoPlace(temp, path);
}

void EnsureWritableDirectory(const std::string& dir) {
  std::error_code error;
  if (fs::exists(dir, error)) {
    PROJ_REQUIRE(fs::is_directory(dir, error), "output path '" << dir << "' is not a folder");
  } else {
    fs::create_directories(dir, error);
    PROJ_REQUIRE(!error, "cannot create output folder '" << dir << "': " << error.message());
  }
  PROJ_REQUIRE(::access(dir.c_str(), W_OK) == 0,
               "output folder '" << dir << "' is not writable: " << std::strerror(errno));
}

}  // namespace proj
