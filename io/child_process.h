// A program run as a child process whose standard output is read through a pipe: how videos
// are decoded by the `ffmpeg` and `ffprobe` programs (io/video_reader.h) without linking
// FFmpeg's libraries. Standard input is /dev/null; standard error goes to an unlinked
// temporary file the caller reads for the program's messages. Not thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace proj {

// Full path of `program` found in $PATH (or `program` itself when it contains a '/' and is
// executable); nullopt when there is none.
std::optional<std::string> FindProgram(const std::string& program);

class ChildProcess {
 public:
  // Starts argv[0] (looked up in $PATH) with arguments argv[1...]. Throws InputError when it
  // cannot be started.
  explicit ChildProcess(const std::vector<std::string>& argv);
  // A child still running is killed (SIGKILL) and reaped.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads exactly `size` bytes of standard output; false at its end before that (bytes read
  // so far are in `buffer`, their count in *num_read when given).
  bool ReadExactly(void* buffer, size_t size, size_t* num_read = nullptr);
  // Everything left on standard output (for short outputs such as ffprobe's).
  std::string ReadAll();
  // Closes standard output and waits for the exit. Returns the exit status, or 128 + the
  // signal number when the child was killed by one.
  int Wait();
  // What the child wrote to standard error from byte *offset on; advances *offset (read
  // it piece by piece to keep long logs out of memory).
  std::string ErrorOutputSince(size_t* offset) const;
  // Everything the child wrote to standard error so far.
  std::string ErrorOutput() const;

 private:
  int pid_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  std::optional<int> exit_status_;
};

}  // namespace proj
