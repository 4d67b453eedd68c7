#include "io/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/check.h"

extern char** environ;

namespace proj {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// An anonymous temporary file: unlinked at once, gone when the last descriptor closes.
int AnonymousTemporaryFile() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/sfm-child-XXXXXX";
  const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  PROJ_REQUIRE(fd >= 0, "cannot create a temporary file in '" << pattern << "': " << std::strerror(errno));
  ::unlink(pattern.c_str());
  return fd;
}

}  // namespace

std::optional<std::string> FindProgram(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    return IsExecutableFile(program) ? std::optional<std::string>(program) : std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::istringstream folders(path != nullptr ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const std::string candidate = (std::filesystem::path(folder.empty() ? "." : folder) / program).string();
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  PROJ_REQUIRE(!argv.empty(), "no program to run");
  const std::optional<std::string> program = FindProgram(argv[0]);
  PROJ_REQUIRE(program, "the program '" << argv[0] << "' is not installed (not found in $PATH)");
  stderr_fd_ = AnonymousTemporaryFile();
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(stderr_fd_);
    PROJ_REQUIRE(false, "cannot create a pipe: " << std::strerror(error));
  }
  stdout_fd_ = pipe_fds[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, stderr_fd_, 2);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int error = ::posix_spawn(&pid_, program->c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (error != 0) {
    ::close(stdout_fd_);
    ::close(stderr_fd_);
    PROJ_REQUIRE(false, "cannot start '" << *program << "': " << std::strerror(error));
  }
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_status_) {
    ::kill(pid_, SIGKILL);
    Wait();
  }
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  if (stderr_fd_ >= 0) ::close(stderr_fd_);
}

bool ChildProcess::ReadExactly(void* buffer, size_t size, size_t* num_read) {
  size_t done = 0;
  while (done < size && stdout_fd_ >= 0) {
    const ssize_t n = ::read(stdout_fd_, static_cast<char*>(buffer) + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  if (num_read != nullptr) *num_read = done;
  return done == size;
}

std::string ChildProcess::ReadAll() {
  std::string text;
  char chunk[4096];
  size_t n = 0;
  while (true) {
    const bool full = ReadExactly(chunk, sizeof(chunk), &n);
    text.append(chunk, n);
    if (!full) return text;
  }
}

int ChildProcess::Wait() {
  if (exit_status_) return *exit_status_;
  if (stdout_fd_ >= 0) {
    ::close(stdout_fd_);  // a child still writing gets SIGPIPE instead of blocking forever
    stdout_fd_ = -1;
  }
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return *exit_status_;
}

std::string ChildProcess::ErrorOutputSince(size_t* offset) const {
  std::string text;
  char chunk[4096];
  ssize_t n = 0;
  while ((n = ::pread(stderr_fd_, chunk, sizeof(chunk), static_cast<off_t>(*offset))) > 0) {
    text.append(chunk, static_cast<size_t>(n));
    *offset += static_cast<size_t>(n);
  }
  return text;
}

std::string ChildProcess::ErrorOutput() const {
  size_t offset = 0;
  return ErrorOutputSince(&offset);
}

}  // namespace proj
