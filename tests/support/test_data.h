// Where tests find data and scratch space. Never the working directory or the network.
#pragma once

#include <string>

namespace proj::testing {

// ../shared/datasets as configured at build time, or $PROJ_SHARED_DATASETS when set (the GPU
// machine carries its own copy).
std::string SharedDatasetsDir();
// SharedDatasetsDir()/relative if it exists, else "" (callers GTEST_SKIP with a message).
std::string SharedDatasetPath(const std::string& relative);
// A fresh, empty folder for this test under the build tree (or $PROJ_TEST_TMP): name/Suite.Test
// inside a test, so tests running in parallel never share one; name alone outside tests.
std::string MakeTempDir(const std::string& name);
// The whole file as text ("" when it cannot be read).
std::string ReadTextFile(const std::string& path);
// Path of a built executable of the project (e.g. "sfm"), for end-to-end CLI tests.
std::string BuiltExecutable(const std::string& name);

}  // namespace proj::testing

// Skips the current test with a message when a shared dataset is missing.
#define PROJ_REQUIRE_SHARED_DATASET(var, relative)                                       \
  const std::string var = ::proj::testing::SharedDatasetPath(relative);                  \
  if (var.empty()) {                                                                     \
    GTEST_SKIP() << "shared dataset '" << relative << "' not found under "               \
                 << ::proj::testing::SharedDatasetsDir() << " (set PROJ_SHARED_DATASETS)"; \
  }
