// Shared pieces of the libFuzzer targets (tests/fuzz/*_fuzzer.cc): turning the fuzzer's bytes
// into the files a reader takes, and the one exception a reader may throw for bad input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace proj::fuzz {

// Separates the files of a multi-file input (a COLMAP model's three files) inside one fuzz
// input. Seeds are written with it (make_fuzz_seeds.cc) so the fuzzer starts from whole models.
constexpr char kFileSeparator[] = "\n--FUZZ-FILE--\n";

// Splits `data` at kFileSeparator into exactly `count` parts (missing parts are empty, the
// last part keeps any further separators).
std::vector<std::string> SplitFiles(const uint8_t* data, size_t size, int count);

// A folder of this process under $TMPDIR (or /tmp), created on first use and reused by every
// run, so a fuzz iteration costs a file write and no directory churn.
const std::string& ScratchDir();

// Writes `bytes` to ScratchDir()/name (replacing it) and returns the path; aborts when the
// write fails, since then the fuzzer tests nothing.
std::string WriteScratchFile(const std::string& name, const void* bytes, size_t size);

// Writes the `count` parts of SplitFiles(data, size, count) as ScratchDir()/names[i] and
// returns ScratchDir(): the folder of a multi-file model.
std::string WriteScratchFiles(const uint8_t* data, size_t size, const char* const* names,
                              int count);

}  // namespace proj::fuzz
