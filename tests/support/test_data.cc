#include "tests/support/test_data.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  const fs::path dir = root / name;
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
