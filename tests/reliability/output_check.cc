#include "tests/reliability/output_check.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <vector>

#include "core/check.h"
#include "io/ply.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_text.h"

namespace proj::testing {
namespace {
namespace fs = std::filesystem;

const std::vector<std::string> kModelFiles = {
    "points.ply", "cameras.ply", "model/cameras.txt", "model/images.txt", "model/points3D.txt",
    "model/cameras.bin", "model/images.bin", "model/points3D.bin"};

// Brackets balance outside strings and the text ends with the closing brace.
bool LooksLikeWholeJson(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth < 0) return false;
    }
  }
  const size_t last = text.find_last_not_of(" \n\r\t");
  return depth == 0 && !in_string && last != std::string::npos && text[last] == '}';
}

std::string ParseProblem(const std::string& out_dir) {
  try {
    ReadPly(out_dir + "/points.ply");
    ReadPly(out_dir + "/cameras.ply");
    ReadColmapText(out_dir + "/model");
    ReadColmapBinary(out_dir + "/model");
  } catch (const InputError& error) {
    return std::string("unreadable output: ") + error.what();
  }
  return "";
}

}  // namespace

std::string CheckOutputs(const std::string& out_dir, bool expect_model) {
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(out_dir, error); !error && it != fs::end(it);
       it.increment(error)) {
    if (it->path().filename().string().find(".tmp.") != std::string::npos) {
      return "temporary file left behind: " + it->path().string();
    }
  }
  int present = 0;
  for (const std::string& file : kModelFiles) present += fs::exists(out_dir + "/" + file) ? 1 : 0;
  const int all = static_cast<int>(kModelFiles.size());
  if (present != 0 && present != all) {
    return "partial model: " + std::to_string(present) + " of " + std::to_string(all) + " files";
  }
  if (expect_model && present == 0) return "no model written";
  if (!expect_model && present == all) return "a model was written";
  if (present == all) {
    const std::string problem = ParseProblem(out_dir);
    if (!problem.empty()) return problem;
  }
  const std::string report = out_dir + "/report.json";
  if (fs::exists(report)) {
    std::ifstream in(report);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!LooksLikeWholeJson(text)) return "report.json is incomplete";
  }
  return "";
}

std::string ModelFocalLengths(const std::string& out_dir, double* min, double* max) {
  const Scene scene = ReadColmapText(out_dir + "/model");
  *min = std::numeric_limits<double>::infinity();
  *max = 0;
  std::ostringstream text;
  for (const Camera& camera : scene.cameras) {
    if (camera.params.empty()) continue;
    const double focal = camera.MeanFocal();
    *min = std::min(*min, focal);
    *max = std::max(*max, focal);
    text << focal << " ";
  }
  return text.str();
}

}  // namespace proj::testing
