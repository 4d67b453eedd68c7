// What each file of a dense workspace was computed from, so that a re-run redoes exactly the
// files whose inputs changed (another --dense-max-image-size, a refined camera, a moved pose,
// other PatchMatch options) and keeps the others. The workspace's DenseWorkspace::root()
// holds resume.txt, one line per file:
//   # sfm dense: the inputs each file was computed from (hashes); delete to redo everything
//   image 9f86d081884c7d65 0003.jpg        an undistorted image
//   maps 2c26b46b68ffc68f 0003.jpg         its photometric depth, normal and cost maps
// A file is reused only when its line's hash equals the hash of what it would be computed
// from now, and the file itself is there with the expected size.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include <Eigen/Core>

namespace proj::mvs {

// FNV-1a (64 bits) over the bytes of what is added: numbers as their binary value, strings
// with their length. Equal inputs give equal hashes on every machine of the same endianness.
class InputHash {
 public:
  InputHash& Add(const std::string& text);
  InputHash& Add(double value);
  InputHash& Add(int64_t value);
  InputHash& Add(int value) { return Add(static_cast<int64_t>(value)); }
  InputHash& Add(const Eigen::Vector3d& value);
  InputHash& Add(const Eigen::Matrix3d& value);
  uint64_t value() const { return hash_; }

 private:
  void AddBytes(const void* data, size_t size);
  uint64_t hash_ = 14695981039346656037ull;
};

enum class ResumeKind { kUndistortedImage, kPhotometricMaps };

// The lines of resume.txt. Thread-safe.
class ResumeRecord {
 public:
  // Reads `path`; empty when it is missing. Lines that do not parse are ignored (their files
  // are redone): the record is a cache, never a reason to stop.
  explicit ResumeRecord(std::string path);
  // Writes the record to its path atomically (io/atomic_file.h); InputError naming the file
  // when it cannot. Names holding a line break are left out (their files are redone).
  void Write() const;

  std::optional<uint64_t> Get(ResumeKind kind, const std::string& name) const;
  void Set(ResumeKind kind, const std::string& name, uint64_t hash);
  void Erase(ResumeKind kind, const std::string& name);

 private:
  std::string path_;
  mutable std::mutex mutex_;
  std::map<std::pair<ResumeKind, std::string>, uint64_t> hashes_;
};

}  // namespace proj::mvs
