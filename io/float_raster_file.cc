#include "io/float_raster_file.h"

#include <cstdint>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"
#include "io/little_endian.h"

namespace proj {
namespace {

// Longest header we accept: three sizes of at most 19 digits and their '&'.
constexpr size_t kMaxHeaderBytes = 3 * 20;

// Parses "W&H&C&" at the start of `bytes`; returns the header length.
size_t ParseHeader(const std::vector<uint8_t>& bytes, const std::string& path, size_t sizes[3]) {
  static const char* const kNames[3] = {"width", "height", "channels"};
  size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    PROJ_REQUIRE(pos < bytes.size() && bytes[pos] != '-',
                 "'" << path << "': " << (pos < bytes.size() ? "negative " : "truncated header, no ")
                     << kNames[i] << " (expected the header WIDTH&HEIGHT&CHANNELS&)");
    size_t value = 0;
    const size_t start = pos;
    while (pos < bytes.size() && bytes[pos] >= '0' && bytes[pos] <= '9' && pos - start < 19) {
      value = value * 10 + (bytes[pos] - '0');
      ++pos;
    }
    PROJ_REQUIRE(pos > start && pos < bytes.size() && bytes[pos] == '&',
                 "'" << path << "': bad header: " << kNames[i]
                     << " is not a decimal number followed by '&' (expected WIDTH&HEIGHT&CHANNELS&)");
    PROJ_REQUIRE(value > 0, "'" << path << "': bad header: " << kNames[i] << " is 0");
    sizes[i] = value;
    ++pos;
  }
  return pos;
}

}  // namespace

void WriteFloatRasterFile(const std::string& path, const FloatRaster& raster) {
  PROJ_CHECK(raster.width > 0 && raster.height > 0 && raster.channels > 0, "empty raster for " << path);
  PROJ_CHECK(raster.data.size() == static_cast<size_t>(raster.width) * raster.height * raster.channels,
             "raster data size does not match its dimensions, for " << path);
  std::string bytes = std::to_string(raster.width) + "&" + std::to_string(raster.height) + "&" +
                      std::to_string(raster.channels) + "&";
  bytes.reserve(bytes.size() + 4 * raster.data.size());
  for (float value : raster.data) AppendLittleEndian(value, &bytes);
  WriteFileAtomically(
      path, [&](std::ostream& stream) { stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); },
      /*binary=*/true);
}

FloatRaster ReadFloatRasterFile(const std::string& path, int channels_wanted) {
  // The header first, so that the sizes are checked against the file's length before the
  // values are read.
  size_t file_size = 0;
  const std::vector<uint8_t> prefix = ReadFilePrefix(path, kMaxHeaderBytes, &file_size);
  size_t sizes[3];
  const size_t header_bytes = ParseHeader(prefix, path, sizes);
  const size_t width = sizes[0], height = sizes[1], channels = sizes[2];
  PROJ_REQUIRE(width <= kMaxFloatRasterValues && height <= kMaxFloatRasterValues &&
                   channels <= kMaxFloatRasterValues &&
                   width * height <= kMaxFloatRasterValues / channels,
               "'" << path << "': raster of " << width << "x" << height << "x" << channels
                   << " values is larger than the " << kMaxFloatRasterValues << " we read");
  PROJ_REQUIRE(channels_wanted <= 0 || channels == static_cast<size_t>(channels_wanted),
               "'" << path << "': has " << channels << " channels, expected " << channels_wanted);
  const size_t count = width * height * channels;
  const size_t expected = header_bytes + 4 * count;
  PROJ_REQUIRE(file_size == expected, "'" << path << "': size mismatch: the header " << width << "&" << height
                                          << "&" << channels << "& needs " << expected << " bytes, the file has "
                                          << file_size << (file_size < expected ? " (truncated)" : ""));

  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  PROJ_REQUIRE(bytes.size() == expected, "'" << path << "': file changed while being read");
  FloatRaster raster;
  raster.width = static_cast<int>(width);
  raster.height = static_cast<int>(height);
  raster.channels = static_cast<int>(channels);
  raster.data.resize(count);
  for (size_t i = 0; i < count; ++i) raster.data[i] = DecodeLittleEndian<float>(&bytes[header_bytes + 4 * i]);
  return raster;
}

}  // namespace proj
