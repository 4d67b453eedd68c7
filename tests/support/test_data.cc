#include "tests/support/test_data.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace proj::testing {
namespace fs = std::filesystem;

std::string SharedDatasetsDir() {
  if (const char* env = std::getenv("PROJ_SHARED_DATASETS")) return env;
  return PROJ_SHARED_DATASETS_DEFAULT;
}

std::string SharedDatasetPath(const std::string& relative) {
  const fs::path path = fs::path(SharedDatasetsDir()) / relative;
  std::error_code error;
  return fs::exists(path, error) ? path.string() : std::string();
}

std::string MakeTempDir(const std::string& name) {
  const char* env = std::getenv("PROJ_TEST_TMP");
  const fs::path root = env ? fs::path(env) : fs::path(PROJ_BINARY_DIR) / "test_tmp";
  // CTest runs each test as its own process, in parallel: tests of one suite asking for the same
  // name must not share (and wipe) one folder, so the folder is the test's own.
  fs::path dir = root / name;
  if (const auto* test = ::testing::UnitTest::GetInstance()->current_test_info()) {
    std::string test_name = std::string(test->test_suite_name()) + "." + test->name();
    for (char& c : test_name)
      if (c == '/') c = '_';
    dir /= test_name;
  }
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string BuiltExecutable(const std::string& name) {
  if (const char* env = std::getenv("PROJ_BIN_DIR")) return (fs::path(env) / name).string();
  return (fs::path(PROJ_BINARY_DIR) / "bin" / name).string();
}

}  // namespace proj::testing
