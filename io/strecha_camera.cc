#include "io/strecha_camera.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include <Eigen/LU>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"

namespace proj {
namespace {

struct Token {
  std::string text;
  int line = 0;
};

std::vector<Token> Tokenize(const std::string& text) {
  std::vector<Token> tokens;
  int line = 1;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      const size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      tokens.push_back({text.substr(start, i - start), line});
    }
  }
  return tokens;
}

double ParseNumber(const Token& token, const std::string& path) {
  const char* begin = token.text.c_str();
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  PROJ_REQUIRE(end == begin + token.text.size() && std::isfinite(value),
               "'" << path << "' line " << token.line << ": expected a number, got '" << token.text
                   << "'");
  return value;
}

std::string FormatDouble(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  PROJ_CHECK(result.ec == std::errc(), "to_chars failed");
  return std::string(buffer, result.ptr);
}

}  // namespace

bool StrechaCamera::Project(const Eigen::Vector3d& X, Eigen::Vector2d* uv) const {
  const Eigen::Vector3d x = K * (R.transpose() * (X - C));
  if (!(x.z() > 0)) return false;
  *uv = x.head<2>() / x.z();
  return true;
}

StrechaCamera ReadStrechaCamera(const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  const std::vector<Token> tokens = Tokenize(std::string(bytes.begin(), bytes.end()));
  constexpr size_t kNumValues = 26;
  PROJ_REQUIRE(!tokens.empty(), "'" << path << "': empty camera file");
  PROJ_REQUIRE(tokens.size() >= kNumValues,
               "'" << path << "' line " << tokens.back().line << ": file ends after "
                   << tokens.size() << " of 26 numbers (K, distortion, R, C, width height)");
  PROJ_REQUIRE(tokens.size() == kNumValues,
               "'" << path << "' line " << tokens[kNumValues].line << ": unexpected extra value '"
                   << tokens[kNumValues].text << "' after the 26 camera numbers");
  std::vector<double> values(kNumValues);
  for (size_t i = 0; i < kNumValues; ++i) values[i] = ParseNumber(tokens[i], path);

  StrechaCamera camera;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      camera.K(r, c) = values[3 * r + c];
      camera.R(r, c) = values[12 + 3 * r + c];
    }
  }
  camera.distortion = Eigen::Vector3d(values[9], values[10], values[11]);
  camera.C = Eigen::Vector3d(values[21], values[22], values[23]);

  const int k_line = tokens[6].line;
  PROJ_REQUIRE(camera.K(2, 0) == 0 && camera.K(2, 1) == 0 && camera.K(2, 2) != 0,
               "'" << path << "' line " << k_line << ": the last row of K must be (0 0 k), k != 0");
  camera.K /= camera.K(2, 2);
  PROJ_REQUIRE(camera.K(0, 0) > 0 && camera.K(1, 1) > 0,
               "'" << path << "' line " << tokens[0].line << ": K must have positive focal lengths");
  const double orthogonality = (camera.R.transpose() * camera.R - Eigen::Matrix3d::Identity()).norm();
  PROJ_REQUIRE(orthogonality < 1e-3 && camera.R.determinant() > 0,
               "'" << path << "' lines " << tokens[12].line << "-" << tokens[20].line
                   << ": R is not a rotation matrix (|R^T R - I| = " << orthogonality
                   << ", det = " << camera.R.determinant() << ")");
  const int size_line = tokens[24].line;
  PROJ_REQUIRE(values[24] == std::floor(values[24]) && values[25] == std::floor(values[25]) &&
                   values[24] >= 1 && values[25] >= 1 && values[24] < 1e6 && values[25] < 1e6,
               "'" << path << "' line " << size_line << ": image size must be two positive integers, got '"
                   << tokens[24].text << " " << tokens[25].text << "'");
  camera.width = static_cast<int>(values[24]);
  camera.height = static_cast<int>(values[25]);
  return camera;
}

void WriteStrechaCamera(const std::string& path, const StrechaCamera& camera) {
  PROJ_REQUIRE(camera.width > 0 && camera.height > 0,
               "'" << path << "': camera image size must be positive");
  PROJ_REQUIRE(camera.K.allFinite() && camera.R.allFinite() && camera.C.allFinite() &&
                   camera.distortion.allFinite(),
               "'" << path << "': camera has non-finite values");
  std::ostringstream out;
  const auto row = [&](const auto& a, const auto& b, const auto& c) {
    out << FormatDouble(a) << ' ' << FormatDouble(b) << ' ' << FormatDouble(c) << '\n';
  };
  for (int r = 0; r < 3; ++r) row(camera.K(r, 0), camera.K(r, 1), camera.K(r, 2));
  row(camera.distortion.x(), camera.distortion.y(), camera.distortion.z());
  for (int r = 0; r < 3; ++r) row(camera.R(r, 0), camera.R(r, 1), camera.R(r, 2));
  row(camera.C.x(), camera.C.y(), camera.C.z());
  out << camera.width << ' ' << camera.height << '\n';
  const std::string text = out.str();
  WriteFileAtomically(path, [&](std::ostream& stream) { stream << text; });
}

}  // namespace proj
