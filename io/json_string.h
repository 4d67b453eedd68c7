// A string as a JSON string literal (quoted, escaped), for the JSON files we write by hand.
#pragma once

#include <string>

namespace proj {

std::string JsonString(const std::string& text);

}  // namespace proj
