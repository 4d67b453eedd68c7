#include "io/file_stamp.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/check.h"

namespace proj {

FileStamp ReadFileStamp(const std::string& path) {
  struct stat status {};
  // A broken link (a loop, a missing target) is stamped by the link itself: reading it
  // reports why it is unusable, and the stamp says whether the link changed since.
  PROJ_REQUIRE(stat(path.c_str(), &status) == 0 || lstat(path.c_str(), &status) == 0,
               "cannot examine '" << path << "': " << std::strerror(errno));
  FileStamp stamp;
  stamp.size = static_cast<int64_t>(status.st_size);
  stamp.modification_time_ns =
      static_cast<int64_t>(status.st_mtim.tv_sec) * 1000000000LL + status.st_mtim.tv_nsec;
  return stamp;
}

}  // namespace proj
