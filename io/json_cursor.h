// Reading the small JSON files we write by hand (io/json_string.h escapes strings for them)
// without a JSON library: a cursor over the text that the reader of each file walks in the
// file's known form, and that throws InputError naming the file on anything unexpected.
#pragma once

#include <cstddef>
#include <string>

namespace proj {

class JsonCursor {
 public:
  // `what` names the kind of file in messages: "'PATH' is not WHAT: REASON at byte N".
  JsonCursor(std::string text, std::string path, std::string what);
  // The whole file; InputError naming it when it cannot be read.
  static JsonCursor FromFile(const std::string& path, const std::string& what);

  void Expect(char c);
  // Consumes `c` when it is the next non-space character.
  bool Accept(char c);
  // A string literal with the escapes JsonString writes (\" \\ \/ \n \t \u00XX).
  std::string String();
  double Number();
  bool Boolean();  // true or false
  // Any value (object, array, string, number, true, false, null), skipped.
  void SkipValue();
  void ExpectEnd();
  [[noreturn]] void Fail(const std::string& reason) const;

 private:
  void SkipSpace();
  bool AcceptWord(const char* word);
  std::string text_;
  std::string path_;
  std::string what_;
  size_t position_ = 0;
};

}  // namespace proj
