// image_source.json: written by us in one fixed form, so the reader parses exactly that form
// (an object with one key, "folders", holding an array of strings escaped by io/json_string.h)
// with io/json_cursor.h instead of pulling in a JSON library.
#include <filesystem>

#include "io/atomic_file.h"
#include "io/json_cursor.h"
#include "io/json_string.h"
#include "sfm/image_source/image_source.h"

namespace proj {

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
  JsonCursor cursor = JsonCursor::FromFile(path, "an image source file");
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
