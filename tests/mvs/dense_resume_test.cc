#include "mvs/dense_resume.h"

#include <gtest/gtest.h>

#include <fstream>

#include "mvs/depth_map_plan.h"
#include "tests/support/test_data.h"

namespace proj::mvs {
namespace {

TEST(InputHash, EqualInputsEqualHashesAndOrderMatters) {
  EXPECT_EQ(InputHash().Add(1).Add(2.5).Add(std::string("a")).value(),
            InputHash().Add(1).Add(2.5).Add(std::string("a")).value());
  EXPECT_NE(InputHash().Add(1).Add(2).value(), InputHash().Add(2).Add(1).value());
  // Strings carry their length: ("ab", "c") is not ("a", "bc").
  EXPECT_NE(InputHash().Add(std::string("ab")).Add(std::string("c")).value(),
            InputHash().Add(std::string("a")).Add(std::string("bc")).value());
  EXPECT_NE(InputHash().Add(0.0).value(), InputHash().Add(-0.0).value());
}

TEST(ResumeRecord, RoundTripsAndIgnoresWhatDoesNotParse) {
  const std::string path = testing::MakeTempDir("dense_resume_round_trip") + "/resume.txt";
  {
    ResumeRecord missing(path);  // no file yet: empty
    EXPECT_FALSE(missing.Get(ResumeKind::kUndistortedImage, "a.jpg"));
    missing.Set(ResumeKind::kUndistortedImage, "a.jpg", 0x0123456789abcdefull);
    missing.Set(ResumeKind::kPhotometricMaps, "a.jpg", 42);
    missing.Set(ResumeKind::kPhotometricMaps, "sub folder/b c.jpg", 7);
    missing.Set(ResumeKind::kPhotometricMaps, "bad\nname.jpg", 9);  // not written
    missing.Write();
  }
  {
    std::ofstream append(path, std::ios::app);
    append << "maps zz not a hash.jpg\nimage 0123\nunknown 0000000000000001 x.jpg\n\n";
  }
  const ResumeRecord read(path);
  EXPECT_EQ(read.Get(ResumeKind::kUndistortedImage, "a.jpg"), 0x0123456789abcdefull);
  EXPECT_EQ(read.Get(ResumeKind::kPhotometricMaps, "a.jpg"), 42u);
  EXPECT_EQ(read.Get(ResumeKind::kPhotometricMaps, "sub folder/b c.jpg"), 7u);
  EXPECT_FALSE(read.Get(ResumeKind::kPhotometricMaps, "bad\nname.jpg"));
  EXPECT_FALSE(read.Get(ResumeKind::kUndistortedImage, "x.jpg"));
  ResumeRecord erased(path);
  erased.Erase(ResumeKind::kPhotometricMaps, "a.jpg");
  EXPECT_FALSE(erased.Get(ResumeKind::kPhotometricMaps, "a.jpg"));
  EXPECT_TRUE(erased.Get(ResumeKind::kUndistortedImage, "a.jpg"));
}

TEST(RasterFileHasSize, JudgesByTheLengthTheHeaderGives) {
  const std::string dir = testing::MakeTempDir("dense_raster_size");
  FloatRaster raster(5, 3, 3);
  WriteFloatRasterFile(dir + "/n.bin", raster);
  EXPECT_TRUE(RasterFileHasSize(dir + "/n.bin", 5, 3, 3));
  EXPECT_FALSE(RasterFileHasSize(dir + "/n.bin", 5, 3, 1));
  EXPECT_FALSE(RasterFileHasSize(dir + "/n.bin", 3, 5, 2));
  EXPECT_FALSE(RasterFileHasSize(dir + "/missing.bin", 5, 3, 3));
  std::ofstream(dir + "/n.bin", std::ios::app) << "x";  // one byte too many
  EXPECT_FALSE(RasterFileHasSize(dir + "/n.bin", 5, 3, 3));
}

}  // namespace
}  // namespace proj::mvs
