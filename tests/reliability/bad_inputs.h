// The bad-input corpus of `sfm reconstruct`: each case writes a folder of images (valid
// synthetic seeds, some corrupted or replaced) and states the exit code and the phrases the
// program's output must contain. Used by reliability_test.cc (one CTest test per case) and
// by make_bad_inputs (writes the whole corpus to a folder, for fuzzing seeds or by hand).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace proj::testing {

// Where the case's output folder is.
enum class OutputPlace {
  kFolder,             // CASE/out
  kBelowRegularFile,   // CASE/blocker/out, CASE/blocker a regular file: unwritable
  kFullDisk,           // CASE/out on a full file system (tmpfs, or RLIMIT_FSIZE when mounting fails)
};

struct BadInputCase {
  std::string name;
  // Writes CASE/images (and anything else the case needs) into the case folder.
  std::function<void(const std::string& case_dir)> make;
  int exit_code = 0;                  // 0 model, 1 no model, 2 bad usage or input
  std::vector<std::string> phrases;   // each must appear in the program's output
  std::string extra_args;             // appended to the command line
  OutputPlace output = OutputPlace::kFolder;
  int registered_images = -1;         // >= 0: report.json must state this many
  std::vector<std::string> report_phrases;  // each must appear in report.json
  bool check_focal = false;           // model focal lengths near the synthetic scene's
  bool needs_unprivileged = false;    // relies on file permissions (skipped as root)
  std::string known_failure;          // not "": skipped with this reason (an open bug)
};

// Focal length of the synthetic seed scenes, px.
constexpr double kSeedFocalPx = 330;

const std::vector<BadInputCase>& BadInputCases();

// gtest prints a case by its name.
inline void PrintTo(const BadInputCase& c, std::ostream* out) { *out << c.name; }

}  // namespace proj::testing
