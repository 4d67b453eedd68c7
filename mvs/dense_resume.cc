#include "mvs/dense_resume.h"

#include <fstream>
#include <iomanip>
#include <sstream>

#include "io/atomic_file.h"

namespace proj::mvs {
namespace {

const char* KindName(ResumeKind kind) {
  return kind == ResumeKind::kUndistortedImage ? "image" : "maps";
}

std::optional<ResumeKind> KindFromName(const std::string& name) {
  if (name == "image") return ResumeKind::kUndistortedImage;
  if (name == "maps") return ResumeKind::kPhotometricMaps;
  return std::nullopt;
}

}  // namespace

void InputHash::AddBytes(const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash_ ^= bytes[i];
    hash_ *= 1099511628211ull;
  }
}

InputHash& InputHash::Add(const std::string& text) {
  Add(static_cast<int64_t>(text.size()));
  AddBytes(text.data(), text.size());
  return *this;
}

InputHash& InputHash::Add(double value) {
  AddBytes(&value, sizeof(value));
  return *this;
}

InputHash& InputHash::Add(int64_t value) {
  AddBytes(&value, sizeof(value));
  return *this;
}

InputHash& InputHash::Add(const Eigen::Vector3d& value) {
  for (int i = 0; i < 3; ++i) Add(value[i]);
  return *this;
}

InputHash& InputHash::Add(const Eigen::Matrix3d& value) {
  for (int i = 0; i < 9; ++i) Add(value(i));
  return *this;
}

ResumeRecord::ResumeRecord(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kind_name;
    std::string hash_text;
    if (!(fields >> kind_name >> hash_text) || fields.get() != ' ') continue;
    std::string name;
    std::getline(fields, name);
    const std::optional<ResumeKind> kind = KindFromName(kind_name);
    if (!kind || name.empty() || hash_text.size() != 16 ||
        hash_text.find_first_not_of("0123456789abcdef") != std::string::npos) {
      continue;
    }
    hashes_[{*kind, name}] = std::stoull(hash_text, nullptr, 16);
  }
}

void ResumeRecord::Write() const {
  std::lock_guard<std::mutex> lock(mutex_);
  WriteFileAtomically(path_, [&](std::ostream& out) {
    out << "# sfm dense: the inputs each file was computed from (hashes); delete to redo everything\n";
    for (const auto& [key, hash] : hashes_) {
      if (key.second.find_first_of("\r\n") != std::string::npos) continue;
      out << KindName(key.first) << " " << std::hex << std::setw(16) << std::setfill('0') << hash << std::dec
          << " " << key.second << "\n";
    }
  });
}

std::optional<uint64_t> ResumeRecord::Get(ResumeKind kind, const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = hashes_.find({kind, name});
  if (found == hashes_.end()) return std::nullopt;
  return found->second;
}

void ResumeRecord::Set(ResumeKind kind, const std::string& name, uint64_t hash) {
  std::lock_guard<std::mutex> lock(mutex_);
  hashes_[{kind, name}] = hash;
}

void ResumeRecord::Erase(ResumeKind kind, const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  hashes_.erase({kind, name});
}

}  // namespace proj::mvs
