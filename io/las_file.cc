#include "io/las_file.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"
#include "io/little_endian.h"

namespace proj {
namespace {

constexpr uint16_t kHeaderSize = 227;       // LAS 1.2 public header block
constexpr uint16_t kVlrHeaderSize = 54;
constexpr uint8_t kPointFormat = 2;          // XYZ, intensity, flags, RGB
constexpr uint16_t kPointRecordLength = 26;
constexpr double kScale = 0.001;             // 1 mm
constexpr uint16_t kGeoKeyDirectoryRecord = 34735;
constexpr uint16_t kGeoAsciiParamsRecord = 34737;
constexpr uint16_t kProjectedCsTypeGeoKey = 3072;
constexpr uint16_t kPcsCitationGeoKey = 3073;
constexpr uint16_t kVerticalCsTypeGeoKey = 4096;
constexpr uint16_t kVerticalCitationGeoKey = 4097;

// `text` in a fixed-size NUL-padded field.
void AppendFixedString(const std::string& text, size_t size, std::string* out) {
  std::string field = text.substr(0, size - 1);
  field.resize(size, '\0');
  out->append(field);
}

// The GeoTIFF key directory and its ASCII parameters (citations, each ended by '|').
struct GeoKeys {
  std::string directory;
  std::string ascii;
};

// Projected model, pixel-is-area, the EPSG CRS, metres horizontally and vertically, the
// vertical CRS when there is one, and the names. Keys sorted by id, as GeoTIFF requires.
GeoKeys MakeGeoKeys(const LasPointCloud& cloud) {
  std::vector<std::array<uint16_t, 4>> keys = {{1024, 0, 1, 1},   // GTModelTypeGeoKey: projected
                                               {1025, 0, 1, 1}};  // GTRasterTypeGeoKey: area
  GeoKeys out;
  const auto add_citation = [&](uint16_t key, const std::string& name) {
    if (name.empty()) return;
    const std::string text = name + "|";
    keys.push_back({key, kGeoAsciiParamsRecord, static_cast<uint16_t>(text.size()),
                    static_cast<uint16_t>(out.ascii.size())});
    out.ascii += text;
  };
  keys.push_back({kProjectedCsTypeGeoKey, 0, 1, static_cast<uint16_t>(cloud.epsg)});
  add_citation(kPcsCitationGeoKey, cloud.crs_name);
  keys.push_back({3076, 0, 1, 9001});  // ProjLinearUnitsGeoKey: metre
  if (cloud.vertical_epsg > 0) {
    keys.push_back({kVerticalCsTypeGeoKey, 0, 1, static_cast<uint16_t>(cloud.vertical_epsg)});
    add_citation(kVerticalCitationGeoKey, cloud.vertical_crs_name);
  }
  keys.push_back({4099, 0, 1, 9001});  // VerticalUnitsGeoKey: metre
  // Directory version 1, key revision 1.0, then the number of keys.
  const std::array<uint16_t, 4> version = {1, 1, 0, static_cast<uint16_t>(keys.size())};
  for (uint16_t v : version) AppendLittleEndian<uint16_t>(v, &out.directory);
  for (const auto& key : keys) {
    for (uint16_t v : key) AppendLittleEndian<uint16_t>(v, &out.directory);
  }
  return out;
}

// A variable length record: its 54-byte header and `data`.
void AppendVlr(uint16_t record_id, const std::string& description, const std::string& data,
               std::string* out) {
  AppendLittleEndian<uint16_t>(0, out);  // reserved
  AppendFixedString("LASF_Projection", 16, out);
  AppendLittleEndian<uint16_t>(record_id, out);
  AppendLittleEndian<uint16_t>(static_cast<uint16_t>(data.size()), out);
  AppendFixedString(description, 32, out);
  out->append(data);
}

int32_t ToGrid(double value, double offset, const std::string& path) {
  const double steps = std::round((value - offset) / kScale);
  PROJ_REQUIRE(std::isfinite(steps) && std::abs(steps) < 2.0e9,
               "cannot write '" << path << "': coordinate " << value
                                << " is not finite or too far from the cloud's other points");
  return static_cast<int32_t>(steps);
}

}  // namespace

void WriteLasFile(const std::string& path, const LasPointCloud& cloud) {
  PROJ_REQUIRE(cloud.positions.size() == cloud.colors.size(),
               "cannot write '" << path << "': " << cloud.positions.size() << " positions but "
                                << cloud.colors.size() << " colours");
  PROJ_REQUIRE(cloud.positions.size() <= std::numeric_limits<uint32_t>::max(),
               "cannot write '" << path << "': too many points for LAS 1.2");
  PROJ_REQUIRE(cloud.epsg >= 0 && cloud.epsg <= 65535 && cloud.vertical_epsg >= 0 &&
                   cloud.vertical_epsg <= 65535,
               "cannot write '" << path << "': EPSG code " << cloud.epsg << " or "
                                << cloud.vertical_epsg << " out of range");
  PROJ_REQUIRE(cloud.crs_name.find('|') == std::string::npos &&
                   cloud.vertical_crs_name.find('|') == std::string::npos &&
                   cloud.crs_name.size() + cloud.vertical_crs_name.size() < 60000,
               "cannot write '" << path << "': a CRS name holds '|' or is too long");
  Eigen::Vector3d min = Eigen::Vector3d::Zero(), max = Eigen::Vector3d::Zero();
  if (!cloud.positions.empty()) {
    min = max = cloud.positions.front();
    for (const auto& p : cloud.positions) {
      PROJ_REQUIRE(p.allFinite(), "cannot write '" << path << "': a point is not finite");
      min = min.cwiseMin(p);
      max = max.cwiseMax(p);
    }
  }
  // Offsets on a 100 m grid keep the stored integers small and the offsets readable.
  const Eigen::Vector3d offset = (min / 100.0).array().floor() * 100.0;
  std::string vlrs;
  uint32_t num_vlrs = 0;
  if (cloud.epsg > 0) {
    const GeoKeys keys = MakeGeoKeys(cloud);
    AppendVlr(kGeoKeyDirectoryRecord, "GeoTIFF GeoKeyDirectoryTag", keys.directory, &vlrs);
    ++num_vlrs;
    if (!keys.ascii.empty()) {
      AppendVlr(kGeoAsciiParamsRecord, "GeoTIFF GeoAsciiParamsTag", keys.ascii, &vlrs);
      ++num_vlrs;
    }
  }
  const uint32_t point_offset = kHeaderSize + static_cast<uint32_t>(vlrs.size());

  std::string header;
  header.append("LASF");
  AppendLittleEndian<uint16_t>(0, &header);  // file source id
  AppendLittleEndian<uint16_t>(0, &header);  // global encoding
  header.append(16, '\0');                   // project GUID
  header.push_back(1);                       // version 1.2
  header.push_back(2);
  AppendFixedString(cloud.system_identifier, 32, &header);
  AppendFixedString("proj sfm", 32, &header);  // generating software
  AppendLittleEndian<uint16_t>(0, &header);    // creation day (left unset: reproducible files)
  AppendLittleEndian<uint16_t>(0, &header);    // creation year
  AppendLittleEndian<uint16_t>(kHeaderSize, &header);
  AppendLittleEndian<uint32_t>(point_offset, &header);
  AppendLittleEndian<uint32_t>(num_vlrs, &header);
  header.push_back(static_cast<char>(kPointFormat));
  AppendLittleEndian<uint16_t>(kPointRecordLength, &header);
  const auto count = static_cast<uint32_t>(cloud.positions.size());
  AppendLittleEndian<uint32_t>(count, &header);
  AppendLittleEndian<uint32_t>(count, &header);  // points by return: all first returns
  for (int r = 1; r < 5; ++r) AppendLittleEndian<uint32_t>(0, &header);
  for (int k = 0; k < 3; ++k) AppendLittleEndian<double>(kScale, &header);
  for (int k = 0; k < 3; ++k) AppendLittleEndian<double>(offset[k], &header);
  for (int k = 0; k < 3; ++k) {
    AppendLittleEndian<double>(max[k], &header);
    AppendLittleEndian<double>(min[k], &header);
  }
  PROJ_CHECK(header.size() == kHeaderSize, "LAS header is " << header.size() << " bytes");
  header.append(vlrs);

  WriteFileAtomically(
      path,
      [&](std::ostream& out) {
        out.write(header.data(), static_cast<std::streamsize>(header.size()));
        std::string record;
        for (size_t i = 0; i < cloud.positions.size(); ++i) {
          record.clear();
          for (int k = 0; k < 3; ++k) {
            AppendLittleEndian<int32_t>(ToGrid(cloud.positions[i][k], offset[k], path), &record);
          }
          AppendLittleEndian<uint16_t>(0, &record);  // intensity
          record.push_back(0x09);                    // return 1 of 1
          record.push_back(0);                       // classification: never classified
          record.push_back(0);                       // scan angle rank
          record.push_back(0);                       // user data
          AppendLittleEndian<uint16_t>(0, &record);  // point source id
          for (int c = 0; c < 3; ++c) {
            AppendLittleEndian<uint16_t>(static_cast<uint16_t>(cloud.colors[i][c] * 257), &record);
          }
          out.write(record.data(), static_cast<std::streamsize>(record.size()));
        }
      },
      /*binary=*/true);
}

LasPointCloud ReadLasFile(const std::string& path) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  auto require_size = [&](size_t end, const char* what) {
    PROJ_REQUIRE(bytes.size() >= end, "cannot read LAS file '" << path << "': truncated ("
                                                                 << what << ")");
  };
  require_size(kHeaderSize, "header");
  PROJ_REQUIRE(std::memcmp(bytes.data(), "LASF", 4) == 0,
               "cannot read LAS file '" << path << "': no LASF signature");
  const uint8_t* h = bytes.data();
  const uint16_t header_size = DecodeLittleEndian<uint16_t>(h + 94);
  const uint32_t point_offset = DecodeLittleEndian<uint32_t>(h + 96);
  const uint32_t num_vlrs = DecodeLittleEndian<uint32_t>(h + 100);
  const uint8_t format_byte = h[104];
  const uint16_t record_length = DecodeLittleEndian<uint16_t>(h + 105);
  const uint32_t count = DecodeLittleEndian<uint32_t>(h + 107);
  PROJ_REQUIRE((format_byte & 0x80) == 0,
               "cannot read LAS file '" << path << "': it is LAZ-compressed");
  const int format = format_byte & 0x3f;
  PROJ_REQUIRE(format <= 3, "cannot read LAS file '" << path << "': point format " << format
                                                     << " is not supported (0-3 are)");
  const int min_length = format == 0 ? 20 : format == 1 ? 28 : format == 2 ? 26 : 34;
  PROJ_REQUIRE(record_length >= min_length, "cannot read LAS file '"
                                                << path << "': point records of " << record_length
                                                << " bytes are too short for format " << format);
  double scale[3], offset[3];
  for (int k = 0; k < 3; ++k) {
    scale[k] = DecodeLittleEndian<double>(h + 131 + 8 * k);
    offset[k] = DecodeLittleEndian<double>(h + 155 + 8 * k);
  }
  LasPointCloud cloud;
  cloud.system_identifier = std::string(reinterpret_cast<const char*>(h + 26),
                                        strnlen(reinterpret_cast<const char*>(h + 26), 32));
  // VLRs: the GeoTIFF key directory gives the CRS, the ASCII parameters their names.
  size_t position = header_size;
  std::vector<std::array<uint16_t, 4>> keys;
  std::string ascii;
  for (uint32_t v = 0; v < num_vlrs; ++v) {
    require_size(position + kVlrHeaderSize, "variable length record header");
    const uint16_t record_id = DecodeLittleEndian<uint16_t>(h + position + 18);
    const uint16_t length = DecodeLittleEndian<uint16_t>(h + position + 20);
    const size_t data = position + kVlrHeaderSize;
    require_size(data + length, "variable length record");
    const bool projection =
        std::strncmp(reinterpret_cast<const char*>(h + position + 2), "LASF_Projection", 16) == 0;
    if (projection && record_id == kGeoKeyDirectoryRecord && length >= 8) {
      const int num_keys = DecodeLittleEndian<uint16_t>(h + data + 6);
      for (int k = 0; k < num_keys && 8 + 8 * (k + 1) <= static_cast<int>(length); ++k) {
        const uint8_t* key = h + data + 8 + 8 * k;
        keys.push_back({DecodeLittleEndian<uint16_t>(key), DecodeLittleEndian<uint16_t>(key + 2),
                        DecodeLittleEndian<uint16_t>(key + 4), DecodeLittleEndian<uint16_t>(key + 6)});
      }
    } else if (projection && record_id == kGeoAsciiParamsRecord) {
      ascii.assign(reinterpret_cast<const char*>(h + data), length);
    }
    position = data + length;
  }
  for (const auto& [id, location, count, value] : keys) {
    if (location == 0 && id == kProjectedCsTypeGeoKey) cloud.epsg = value;
    if (location == 0 && id == kVerticalCsTypeGeoKey) cloud.vertical_epsg = value;
    if (location == kGeoAsciiParamsRecord && static_cast<size_t>(value) + count <= ascii.size() &&
        count > 0) {
      // The citation without its '|' terminator (and any NUL padding).
      std::string text = ascii.substr(value, count);
      text = text.substr(0, text.find_first_of(std::string("|\0", 2)));
      if (id == kPcsCitationGeoKey) cloud.crs_name = text;
      if (id == kVerticalCitationGeoKey) cloud.vertical_crs_name = text;
    }
  }
  require_size(static_cast<size_t>(point_offset) + static_cast<size_t>(count) * record_length,
               "point records");
  const size_t color_at = format == 2 ? 20 : 28;
  const bool has_color = format >= 2;
  cloud.positions.reserve(count);
  cloud.colors.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* record = h + point_offset + static_cast<size_t>(i) * record_length;
    Eigen::Vector3d p;
    for (int k = 0; k < 3; ++k) {
      p[k] = DecodeLittleEndian<int32_t>(record + 4 * k) * scale[k] + offset[k];
    }
    cloud.positions.push_back(p);
    Eigen::Matrix<uint8_t, 3, 1> color = Eigen::Matrix<uint8_t, 3, 1>::Zero();
    if (has_color) {
      for (int c = 0; c < 3; ++c) {
        color[c] = static_cast<uint8_t>(DecodeLittleEndian<uint16_t>(record + color_at + 2 * c) >> 8);
      }
    }
    cloud.colors.push_back(color);
  }
  return cloud;
}

}  // namespace proj
