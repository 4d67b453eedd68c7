#include "tests/integration/sfm_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <thread>

#include "tests/support/test_data.h"

namespace proj::testing {

SignalledRun RunSfmAndSignal(const std::vector<std::string>& arguments, const std::string& trigger,
                             int delay_ms, const std::vector<int>& signals, int gap_ms) {
  SignalledRun run;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return run;
  const std::string program = BuiltExecutable("sfm");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    const int null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, STDOUT_FILENO);
    close(pipe_fds[0]);
    std::vector<char*> argv = {const_cast<char*>(program.c_str())};
    for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  FILE* child_stderr = fdopen(pipe_fds[0], "r");
  char line[4096];
  while (fgets(line, sizeof(line), child_stderr) != nullptr) {
    run.stderr_text += line;
    if (run.signalled || std::string(line).find(trigger) == std::string::npos) continue;
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    run.signalled = true;
    for (size_t k = 0; k < signals.size(); ++k) {
      if (k > 0) std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
      run.signalled = run.signalled && kill(pid, signals[k]) == 0;
    }
  }
  fclose(child_stderr);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.term_signal = WTERMSIG(status);
  return run;
}

int RunSfmToEnd(const std::vector<std::string>& arguments, const std::string& log) {
  std::string command = BuiltExecutable("sfm");
  for (const std::string& argument : arguments) command += " " + argument;
  const int status = std::system((command + " > " + log + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

long long ReportNumber(const std::string& report, const std::string& key) {
  std::smatch match;
  if (!std::regex_search(report, match, std::regex("\"" + key + "\": (-?[0-9]+)"))) return -1;
  return std::stoll(match[1]);
}

double ReportDouble(const std::string& report, const std::string& key, size_t from) {
  const size_t at = report.find("\"" + key + "\": ", from);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(report.c_str() + at + key.size() + 4, nullptr);
}

}  // namespace proj::testing
