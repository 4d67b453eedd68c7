// How a run was started, as report.json and report.html record it.
#pragma once

#include <string>

namespace proj {

struct RunDescription {
  std::string images_dir;
  std::string device;         // what --device resolved to
  std::string command_line;
};

}  // namespace proj
