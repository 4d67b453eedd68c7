// image_source.json: written by us in one fixed form, so the reader parses exactly that form
// (an object with one key, "folders", holding an array of strings escaped by io/json_string.h)
// instead of pulling in a JSON library.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/json_string.h"
#include "sfm/image_source/image_source.h"

namespace proj {
namespace {

// A cursor over the file's text that throws InputError naming the file on anything unexpected.
class JsonCursor {
 public:
  JsonCursor(std::string text, std::string path) : text_(std::move(text)), path_(std::move(path)) {}

  void Expect(char c) {
    SkipSpace();
    if (position_ >= text_.size() || text_[position_] != c) Fail(std::string("expected '") + c + "'");
    ++position_;
  }
  // Consumes `c` when it is the next non-space character.
  bool Accept(char c) {
    SkipSpace();
    if (position_ < text_.size() && text_[position_] == c) {
      ++position_;
      return true;
    }
    return false;
  }
  // A string literal with the escapes JsonString writes (\" \\ \n \t \u00XX).
  std::string String() {
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
  void ExpectEnd() {
    SkipSpace();
    if (position_ != text_.size()) Fail("unexpected text after the object");
  }
  [[noreturn]] void Fail(const std::string& reason) const {
    throw InputError("'" + path_ + "' is not an image source file: " + reason + " at byte " +
                     std::to_string(position_));
  }

 private:
  void SkipSpace() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }
  std::string text_;
  std::string path_;
  size_t position_ = 0;
};

}  // namespace

void WriteImageSource(const ImageSource& source, const std::string& path) {
  WriteFileAtomically(path, [&](std::ostream& out) {
    out << "{\n  \"folders\": [";
    for (size_t i = 0; i < source.folders().size(); ++i) {
      const std::string absolute =
          std::filesystem::absolute(source.folders()[i]).lexically_normal().string();
      out << (i ? ",\n    " : "\n    ") << JsonString(absolute);
    }
    out << (source.empty() ? "]\n}\n" : "\n  ]\n}\n");
  });
}

ImageSource ReadImageSource(const std::string& path) {
  std::ifstream in(path);
  PROJ_REQUIRE(in, "cannot read the image source file '" << path << "'");
  std::stringstream text;
  text << in.rdbuf();
  JsonCursor cursor(text.str(), path);
  cursor.Expect('{');
  if (cursor.String() != "folders") cursor.Fail("expected the key \"folders\"");
  cursor.Expect(':');
  cursor.Expect('[');
  std::vector<std::string> folders;
  if (!cursor.Accept(']')) {
    do {
      folders.push_back(cursor.String());
    } while (cursor.Accept(','));
    cursor.Expect(']');
  }
  cursor.Expect('}');
  cursor.ExpectEnd();
  return ImageSource(folders);
}

}  // namespace proj
