// JSON literals for the JSON files we write by hand.
#pragma once

#include <string>
#include <vector>

namespace proj {

// A string as a JSON string literal (quoted, escaped).
std::string JsonString(const std::string& text);
// Strings as a JSON array of string literals, on one line.
std::string JsonStrings(const std::vector<std::string>& values);

// A finite double as a JSON number: the shortest text that reads back to the same double
// (as Python's json writes floats). Throws InputError for NaN and infinities, which JSON
// cannot hold.
std::string JsonNumber(double value);

}  // namespace proj
