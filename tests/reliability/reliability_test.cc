// The bad-input corpus (bad_inputs.h) through `sfm reconstruct`: for each case the exit code,
// the phrases of the message, and outputs that are whole or absent, never partial; a run
// that takes longer than kTimeoutSeconds counts as a hang.
#include <sys/mount.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "tests/reliability/bad_inputs.h"
#include "tests/reliability/output_check.h"
#include "tests/support/test_data.h"

namespace proj::testing {
namespace {
namespace fs = std::filesystem;

constexpr int kTimeoutSeconds = 300;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A full output file system: an 8 KiB tmpfs mounted on `dir` when this process may mount
// (root in a privileged container); otherwise the child's file size limit (RLIMIT_FSIZE,
// with SIGXFSZ ignored so writes fail with EFBIG as they would with ENOSPC).
class FullDisk {
 public:
  explicit FullDisk(const std::string& dir) : dir_(dir) {
    fs::create_directories(dir);
    mounted_ = ::mount("tmpfs", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=8k") == 0;
  }
  ~FullDisk() {
    if (mounted_) ::umount(dir_.c_str());
  }
  // Shell prefix of the command that runs the program.
  std::string CommandPrefix() const { return mounted_ ? "" : "trap '' XFSZ; ulimit -f 16; "; }
  std::string Description() const {
    return mounted_ ? "8 KiB tmpfs" : "RLIMIT_FSIZE of 16 blocks (mounting a tmpfs failed)";
  }

 private:
  std::string dir_;
  bool mounted_ = false;
};

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

class BadInput : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(BadInput, ExitCodeMessageAndWholeOutputs) {
  const BadInputCase& c = GetParam();
  if (c.needs_unprivileged && ::geteuid() == 0) {
    GTEST_SKIP() << "running as root: chmod 000 does not stop root from reading the file";
  }
  if (!c.known_failure.empty()) GTEST_SKIP() << "known failure: " << c.known_failure;
  const std::string dir = MakeTempDir("bad_input_" + c.name);
  c.make(dir);
  const std::string out = dir + (c.output == OutputPlace::kBelowRegularFile ? "/blocker/out" : "/out");
  std::optional<FullDisk> full_disk;
  if (c.output == OutputPlace::kFullDisk) {
    full_disk.emplace(out);
    std::cout << "full disk simulated with " << full_disk->Description() << "\n";
  }
  const std::string log = dir + "/log.txt";
  const std::string command = (full_disk ? full_disk->CommandPrefix() : std::string()) + "timeout " +
                              std::to_string(kTimeoutSeconds) + " " + BuiltExecutable("sfm") +
                              " reconstruct " + dir + "/images -o " + out +
                              " --device cpu --threads 2 --max-features 2048 " +
                              Replace(c.extra_args, "{case}", dir) + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string output = ReadText(log);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal\n" << output;
  const int exit_code = WEXITSTATUS(status);
  ASSERT_NE(exit_code, 124) << "hang: no exit within " << kTimeoutSeconds << " s\n" << output;
  EXPECT_EQ(exit_code, c.exit_code) << output;
  EXPECT_EQ(output.find("internal error"), std::string::npos) << output;
  for (const std::string& phrase : c.phrases) {
    EXPECT_NE(output.find(phrase), std::string::npos) << "'" << phrase << "' not in:\n" << output;
  }
  EXPECT_EQ(CheckOutputs(out, exit_code == 0), "");
  if (exit_code != 0) return;
  const std::string report = ReadText(out + "/report.json");
  if (c.registered_images >= 0) {
    EXPECT_NE(report.find("\"registered_images\": " + std::to_string(c.registered_images)), std::string::npos)
        << report;
  }
  for (const std::string& phrase : c.report_phrases) {
    EXPECT_NE(report.find(phrase), std::string::npos) << "'" << phrase << "' not in:\n" << report;
  }
  if (c.check_focal) {
    double min = 0, max = 0;
    const std::string focals = ModelFocalLengths(out, &min, &max);
    EXPECT_GT(min, 0.7 * kSeedFocalPx) << focals;
    EXPECT_LT(max, 1.4 * kSeedFocalPx) << focals;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(BadInputCases()),
                         [](const ::testing::TestParamInfo<BadInputCase>& info) { return info.param.name; });

}  // namespace
}  // namespace proj::testing
