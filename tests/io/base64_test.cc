#include "io/base64.h"

#include <gtest/gtest.h>

namespace proj {
namespace {

TEST(Base64, Rfc4648TestVectors) {
  EXPECT_EQ(EncodeBase64(""), "");
  EXPECT_EQ(EncodeBase64("f"), "Zg==");
  EXPECT_EQ(EncodeBase64("fo"), "Zm8=");
  EXPECT_EQ(EncodeBase64("foo"), "Zm9v");
  EXPECT_EQ(EncodeBase64("foob"), "Zm9vYg==");
  EXPECT_EQ(EncodeBase64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(EncodeBase64("foobar"), "Zm9vYmFy");
  const uint8_t high[] = {0xff, 0xfe, 0x00};
  EXPECT_EQ(EncodeBase64(high, 3), "//4A");
}

}  // namespace
}  // namespace proj
