// Atomic file output: content goes to a temporary file beside the target, which is renamed
// over the target only once fully written and flushed, so a crash or error never leaves a
// truncated output behind.
#pragma once

#include <fstream>
#include <functional>
#include <string>

namespace proj {

// Calls `write(stream)` on a temporary file in the same folder as `path`, then renames it to
// `path`. Throws InputError naming the path and the reason if the folder is not writable or
// writing fails; the temporary file is removed in that case.
void WriteFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write,
                         bool binary = false);

// For writers that take a file name rather than a stream (GDAL): calls `write(temp_path)`,
// which must create the file `temp_path` (in the same folder as `path`), then renames it to
// `path`. Errors as above; the temporary file is removed when `write` throws.
void WriteFileAtomicallyAt(const std::string& path, const std::function<void(const std::string&)>& write);

// Throws InputError unless `dir` exists (or can be created) and a file can be written in it.
void EnsureWritableDirectory(const std::string& dir);

}  // namespace proj
