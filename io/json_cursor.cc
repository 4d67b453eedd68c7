#include "io/json_cursor.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/check.h"

namespace proj {

JsonCursor::JsonCursor(std::string text, std::string path, std::string what)
    : text_(std::move(text)), path_(std::move(path)), what_(std::move(what)) {}

JsonCursor JsonCursor::FromFile(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  PROJ_REQUIRE(in, "cannot read " << what << " '" << path << "'");
  std::stringstream text;
  text << in.rdbuf();
  return JsonCursor(text.str(), path, what);
}

void JsonCursor::Expect(char c) {
  SkipSpace();
  if (position_ >= text_.size() || text_[position_] != c) Fail(std::string("expected '") + c + "'");
  ++position_;
}

bool JsonCursor::Accept(char c) {
  SkipSpace();
  if (position_ < text_.size() && text_[position_] == c) {
    ++position_;
    return true;
  }
  return false;
}

std::string JsonCursor::String() {
  Expect('"');
  std::string value;
  while (position_ < text_.size() && text_[position_] != '"') {
    char c = text_[position_++];
    if (c == '\\') {
      if (position_ >= text_.size()) break;
      const char escape = text_[position_++];
      if (escape == 'n') {
        c = '\n';
      } else if (escape == 't') {
        c = '\t';
      } else if (escape == 'u' && position_ + 4 <= text_.size() && text_.compare(position_, 2, "00") == 0) {
        c = static_cast<char>(std::stoi(text_.substr(position_ + 2, 2), nullptr, 16));
        position_ += 4;
      } else if (escape == '"' || escape == '\\' || escape == '/') {
        c = escape;
      } else {
        Fail("unsupported escape in a string");
      }
    }
    value += c;
  }
  Expect('"');
  return value;
}

double JsonCursor::Number() {
  SkipSpace();
  // JSON's grammar: -? digits (. digits)? ([eE] [+-]? digits)?
  const size_t start = position_;
  auto digits = [&] {
    const size_t first = position_;
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) ++position_;
    return position_ > first;
  };
  auto accept = [&](const char* characters) {
    if (position_ >= text_.size() || !std::strchr(characters, text_[position_])) return false;
    ++position_;
    return true;
  };
  accept("-");
  bool valid = digits();
  if (valid && accept(".")) valid = digits();
  if (valid && accept("eE")) {
    accept("+-");
    valid = digits();
  }
  if (!valid) {
    position_ = start;
    Fail("expected a number");
  }
  return std::strtod(text_.substr(start, position_ - start).c_str(), nullptr);
}

bool JsonCursor::Boolean() {
  SkipSpace();
  if (AcceptWord("true")) return true;
  if (AcceptWord("false")) return false;
  Fail("expected true or false");
}

void JsonCursor::SkipValue() {
  SkipSpace();
  if (position_ >= text_.size()) Fail("expected a value");
  const char c = text_[position_];
  if (c == '"') {
    String();
  } else if (c == '{' || c == '[') {
    const char close = c == '{' ? '}' : ']';
    ++position_;
    if (Accept(close)) return;
    do {
      if (c == '{') {
        String();
        Expect(':');
      }
      SkipValue();
    } while (Accept(','));
    Expect(close);
  } else if (!AcceptWord("true") && !AcceptWord("false") && !AcceptWord("null")) {
    Number();
  }
}

void JsonCursor::ExpectEnd() {
  SkipSpace();
  if (position_ != text_.size()) Fail("unexpected text after the object");
}

void JsonCursor::Fail(const std::string& reason) const {
  throw InputError("'" + path_ + "' is not " + what_ + ": " + reason + " at byte " + std::to_string(position_));
}

void JsonCursor::SkipSpace() {
  while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
}

bool JsonCursor::AcceptWord(const char* word) {
  const size_t length = std::strlen(word);
  if (text_.compare(position_, length, word) != 0) return false;
  position_ += length;
  return true;
}

}  // namespace proj
