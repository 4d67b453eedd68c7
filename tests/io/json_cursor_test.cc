// The cursor our JSON readers walk files with: values of every kind read or skipped, and
// anything malformed an InputError naming the file and the byte; numbers as JsonNumber writes
// them read back exactly.
#include "io/json_cursor.h"

#include <cmath>
#include <limits>
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/check.h"
#include "io/json_string.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

TEST(JsonNumber, ShortestTextThatReadsBackExactly) {
  EXPECT_EQ(JsonNumber(0.1), "0.1");
  EXPECT_EQ(JsonNumber(120), "120");
  EXPECT_EQ(JsonNumber(-0.5), "-0.5");
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-30, 30);
  for (int i = 0; i < 1000; ++i) {
    const double value = std::ldexp(mantissa(rng), exponent(rng));
    JsonCursor cursor(JsonNumber(value), "/tmp/n.json", "a test file");
    EXPECT_EQ(cursor.Number(), value) << JsonNumber(value);
  }
  EXPECT_THROW(JsonNumber(std::numeric_limits<double>::quiet_NaN()), InputError);
  EXPECT_THROW(JsonNumber(std::numeric_limits<double>::infinity()), InputError);
}

TEST(JsonCursor, ReadsAndSkipsValues) {
  JsonCursor cursor(
      "{\"a\": -12.5e-1, \"skip\": [1, {\"x\": [true, null, \"s\\\"\"]}, {}], \"b\": false, "
      "\"c\": \"tab\\tq\\\"\\u0041\"}  \n",
      "/tmp/f.json", "a test file");
  cursor.Expect('{');
  EXPECT_EQ(cursor.String(), "a");
  cursor.Expect(':');
  EXPECT_EQ(cursor.Number(), -1.25);
  cursor.Expect(',');
  EXPECT_EQ(cursor.String(), "skip");
  cursor.Expect(':');
  cursor.SkipValue();
  EXPECT_TRUE(cursor.Accept(','));
  EXPECT_EQ(cursor.String(), "b");
  cursor.Expect(':');
  EXPECT_FALSE(cursor.Boolean());
  cursor.Expect(',');
  EXPECT_EQ(cursor.String(), "c");
  cursor.Expect(':');
  EXPECT_EQ(cursor.String(), "tab\tq\"A");
  EXPECT_FALSE(cursor.Accept(','));
  cursor.Expect('}');
  cursor.ExpectEnd();
}

TEST(JsonCursor, MalformedInputNamesTheFileAndByte) {
  for (const char* text : {"1.", "-", ".5", "nan", "inf", "0x10", "+1", "tru", "[1, 2", "{\"a\" 1}"}) {
    JsonCursor cursor(text, "/data/g.json", "a georeference file");
    try {
      cursor.SkipValue();
      cursor.ExpectEnd();
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& error) {
      EXPECT_THAT(error.what(), HasSubstr("'/data/g.json' is not a georeference file: "));
      EXPECT_THAT(error.what(), HasSubstr(" at byte "));
    }
  }
  EXPECT_THROW(JsonCursor::FromFile("/nonexistent/g.json", "a georeference file"), InputError);
}

}  // namespace
}  // namespace proj
