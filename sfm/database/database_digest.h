// Fingerprints of a scene database's result tables, to tell whether two runs wrote the same
// results byte for byte (the same images on 1 or N GPUs, a resumed run, ...). Every row is
// hashed (FNV-1a 64 over each column's type and bytes) in key order, so equal digests mean
// equal rows up to a hash collision, and the first differing key can be named.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace proj {

struct TableDigest {
  std::string table;
  std::string key_column;
  std::vector<std::pair<int64_t, uint64_t>> rows;  // (key, hash of the whole row), by key
  uint64_t Hash() const;                           // of all rows, in order
};

// The digests of cameras, images, keypoints, descriptors, matches, two_view_geometries and
// pose_priors (a table the file lacks has no rows). Opens `path` read-only; InputError naming
// the file when it cannot be read as an SQLite database.
std::vector<TableDigest> DigestSceneDatabase(const std::string& path);

// "" when `a` and `b` (from DigestSceneDatabase) are equal; else one line per table that
// differs: its row counts and the first key whose row differs or is missing on one side.
std::string CompareDigests(const std::vector<TableDigest>& a, const std::vector<TableDigest>& b);

}  // namespace proj
