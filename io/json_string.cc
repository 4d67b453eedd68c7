#include "io/json_string.h"

#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/check.h"

namespace proj {

std::string JsonString(const std::string& text) {
  std::ostringstream out;
  out << '"';
  for (const char c : text) {
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\t': out << "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out << "\\u" << std::hex << std::setw(4) << std::setfill('0') << static_cast<int>(c)
              << std::dec;
        } else {
          out << c;
        }
    }
  }
  out << '"';
  return out.str();
}

std::string JsonStrings(const std::vector<std::string>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + JsonString(values[i]);
  return text + "]";
}

std::string JsonNumber(double value) {
  PROJ_REQUIRE(std::isfinite(value), "JSON cannot hold the number " << value);
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  PROJ_CHECK(result.ec == std::errc(), "to_chars failed");
  return std::string(buffer, result.ptr);
}

}  // namespace proj
