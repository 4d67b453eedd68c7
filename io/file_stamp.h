// Size and modification time of a file: how a later run notices that a photo was replaced.
#pragma once

#include <cstdint>
#include <string>

namespace proj {

struct FileStamp {
  int64_t size = 0;
  int64_t modification_time_ns = 0;  // since the epoch
  bool operator==(const FileStamp& other) const {
    return size == other.size && modification_time_ns == other.modification_time_ns;
  }
};

// Throws InputError naming the file when it cannot be examined.
FileStamp ReadFileStamp(const std::string& path);

}  // namespace proj
