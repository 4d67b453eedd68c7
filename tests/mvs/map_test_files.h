// Raw bytes of map files, for the depth and normal map tests: writing hand-made (malformed)
// files and reading back what was written.
#pragma once

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace proj::testing {

inline void WriteRawFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string ReadRawFile(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>());
}

// The little-endian bytes of `values` (the tests run on little-endian hosts).
inline std::string FloatBytes(const std::vector<float>& values) {
  std::string bytes(4 * values.size(), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace proj::testing
