#include "io/file_stamp.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/check.h"

namespace proj {

FileStamp ReadFileStamp(const std::string& path) {
  struct stat status {};
  PROJ_REQUIRE(stat(path.c_str(), &status) == 0,
               "cannot examine '" << path << "': " << std::strerror(errno));
  FileStamp stamp;
  stamp.size = static_cast<int64_t>(status.st_size);
  stamp.modification_time_ns =
      static_cast<int64_t>(status.st_mtim.tv_sec) * 1000000000LL + status.st_mtim.tv_nsec;
  return stamp;
}

}  // namespace proj
