#include "mvs/depth_map.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/check.h"
#include "tests/mvs/map_test_files.h"
#include "tests/support/test_data.h"

namespace proj::mvs {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Bit patterns equal (so -0, NaN payloads and denormals count).
bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

TEST(DepthMap, RoundTripIsBitExact) {
  const std::string path = testing::MakeTempDir("depth_map_round_trip") + "/0000.jpg.bin";
  DepthMap depth(7, 5);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 7; ++x) depth.At(x, y) = (x == 3 && y == 2) ? 0.0f : 1.0f / 3 + 0.37f * x + 11.1f * y;
  }
  depth.At(0, 0) = std::numeric_limits<float>::denorm_min();
  depth.At(1, 0) = -0.0f;
  depth.At(2, 0) = std::numeric_limits<float>::max();
  WriteDepthMap(path, depth);
  const DepthMap read = ReadDepthMap(path);
  ASSERT_EQ(read.width(), 7);
  ASSERT_EQ(read.height(), 5);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 7; ++x) EXPECT_TRUE(SameBits(read.At(x, y), depth.At(x, y))) << x << "," << y;
  }
}

TEST(DepthMap, FileLayoutIsColmaps) {
  // "W&H&C&" then row-major float32 little-endian.
  const std::string path = testing::MakeTempDir("depth_map_layout") + "/d.bin";
  DepthMap depth(3, 2);
  const std::vector<float> values = {1, 2, 3, 4, 5, 0};
  for (int i = 0; i < 6; ++i) depth.At(i % 3, i / 3) = values[i];
  WriteDepthMap(path, depth);
  EXPECT_EQ(testing::ReadRawFile(path), "3&2&1&" + testing::FloatBytes(values));
}

// Writes `bytes` as a file and returns the message ReadDepthMap throws ("" if none). A folder
// per file: CTest runs the tests of this binary in parallel processes, and MakeTempDir empties
// the folder it makes.
std::string ReadError(const std::string& name, const std::string& bytes) {
  const std::string path = testing::MakeTempDir("depth_map_error_" + name) + "/" + name;
  testing::WriteRawFile(path, bytes);
  try {
    ReadDepthMap(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(DepthMap, RejectsBadFilesNamingThem) {
  const std::string two_by_two = testing::FloatBytes({1, 2, 3, 4});
  EXPECT_THAT(ReadError("truncated.bin", "2&2&1&" + two_by_two.substr(0, 15)),
              AllOf(HasSubstr("truncated.bin"), HasSubstr("size mismatch"), HasSubstr("truncated")));
  EXPECT_THAT(ReadError("trailing.bin", "2&2&1&" + two_by_two + "x"),
              AllOf(HasSubstr("trailing.bin"), HasSubstr("size mismatch")));
  EXPECT_THAT(ReadError("empty.bin", ""), AllOf(HasSubstr("empty.bin"), HasSubstr("truncated header")));
  EXPECT_THAT(ReadError("header_only.bin", "2&2&"),
              AllOf(HasSubstr("header_only.bin"), HasSubstr("truncated header")));
  EXPECT_THAT(ReadError("text.bin", "width&2&1&" + two_by_two),
              AllOf(HasSubstr("text.bin"), HasSubstr("bad header"), HasSubstr("width")));
  EXPECT_THAT(ReadError("spaces.bin", "2 & 2 & 1&" + two_by_two),
              AllOf(HasSubstr("spaces.bin"), HasSubstr("bad header")));
  EXPECT_THAT(ReadError("negative.bin", "2&-2&1&" + two_by_two),
              AllOf(HasSubstr("negative.bin"), HasSubstr("negative height")));
  EXPECT_THAT(ReadError("zero.bin", "0&2&1&"), AllOf(HasSubstr("zero.bin"), HasSubstr("width is 0")));
  EXPECT_THAT(ReadError("channels.bin", "1&2&2&" + two_by_two),
              AllOf(HasSubstr("channels.bin"), HasSubstr("2 channels, expected 1")));
}

TEST(DepthMap, RejectsAbsurdSizesBeforeAllocating) {
  // A 20-byte header asking for gigabytes (or overflowing size_t) is refused from the header.
  EXPECT_THAT(ReadError("huge.bin", "100000&100000&1&"), AllOf(HasSubstr("huge.bin"), HasSubstr("larger than")));
  EXPECT_THAT(ReadError("overflow.bin", "9999999999999999999&9999999999999999999&1&"),
              AllOf(HasSubstr("overflow.bin"), HasSubstr("larger than")));
  EXPECT_THAT(ReadError("too_many_digits.bin", "99999999999999999999999&1&1&"),
              AllOf(HasSubstr("too_many_digits.bin"), HasSubstr("bad header")));
  // Within the cap but not backed by the file: a size mismatch, not an allocation.
  EXPECT_THAT(ReadError("big.bin", "10000&10000&1&"), AllOf(HasSubstr("big.bin"), HasSubstr("size mismatch")));
}

TEST(DepthMap, MissingFileIsAnInputError) {
  const std::string path = testing::MakeTempDir("depth_map_missing") + "/none.bin";
  EXPECT_THROW(ReadDepthMap(path), InputError);
}

}  // namespace
}  // namespace proj::mvs
