// Little-endian encoding of fixed-size values, for the binary formats we write and read (PLY,
// COLMAP's .bin model). Correct on any host: bytes are swapped when the host is big-endian.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace proj {

inline bool HostIsLittleEndian() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// Appends the sizeof(T) bytes of `value`, least significant first.
template <typename T>
void AppendLittleEndian(T value, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if (!HostIsLittleEndian()) std::reverse(bytes, bytes + sizeof(T));
  out->append(bytes, sizeof(T));
}

// The value whose little-endian bytes start at `bytes` (sizeof(T) of them must be readable).
template <typename T>
T DecodeLittleEndian(const uint8_t* bytes) {
  uint8_t raw[sizeof(T)];
  std::memcpy(raw, bytes, sizeof(T));
  if (!HostIsLittleEndian()) std::reverse(raw, raw + sizeof(T));
  T value;
  std::memcpy(&value, raw, sizeof(T));
  return value;
}

}  // namespace proj
