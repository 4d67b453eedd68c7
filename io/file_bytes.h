// Whole-file and file-prefix reads shared by the io/ readers. Errors name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace proj {

// Reads the whole file. Throws InputError if it is missing, a folder or unreadable.
std::vector<uint8_t> ReadFileBytes(const std::string& path);

// Reads at most `max_bytes` from the start of the file (fewer if the file is shorter).
// `file_size` (optional) receives the full size. Same errors as ReadFileBytes.
std::vector<uint8_t> ReadFilePrefix(const std::string& path, size_t max_bytes,
                                    size_t* file_size = nullptr);

}  // namespace proj
