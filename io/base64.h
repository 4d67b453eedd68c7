// Base64 (RFC 4648, standard alphabet, '=' padding), for binary data embedded in text files
// such as data URIs in HTML pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace proj {

std::string EncodeBase64(const uint8_t* bytes, size_t size);
inline std::string EncodeBase64(const std::string& bytes) {
  return EncodeBase64(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace proj
