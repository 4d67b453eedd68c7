#include "tests/fuzz/fuzz_support.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace proj::fuzz {

std::vector<std::string> SplitFiles(const uint8_t* data, size_t size, int count) {
  std::vector<std::string> parts;
  std::string rest(reinterpret_cast<const char*>(data), size);
  const size_t separator_size = std::strlen(kFileSeparator);
  while (static_cast<int>(parts.size()) + 1 < count) {
    const size_t at = rest.find(kFileSeparator);
    if (at == std::string::npos) break;
    parts.push_back(rest.substr(0, at));
    rest.erase(0, at + separator_size);
  }
  parts.push_back(rest);
  parts.resize(count);
  return parts;
}

const std::string& ScratchDir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path path = (tmp && *tmp) ? tmp : "/tmp";
    path /= "proj_fuzz_" + std::to_string(getpid());
    std::filesystem::create_directories(path);
    return path.string();
  }();
  return dir;
}

std::string WriteScratchFile(const std::string& name, const void* bytes, size_t size) {
  const std::string path = ScratchDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path;
}

std::string WriteScratchFiles(const uint8_t* data, size_t size, const char* const* names,
                              int count) {
  const std::vector<std::string> parts = SplitFiles(data, size, count);
  for (int i = 0; i < count; ++i) WriteScratchFile(names[i], parts[i].data(), parts[i].size());
  return ScratchDir();
}

}  // namespace proj::fuzz
