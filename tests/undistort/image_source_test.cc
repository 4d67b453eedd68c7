#include "sfm/image_source/image_source.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/check.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

void Touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(ImageSource, ResolvesToTheFirstFolderHoldingTheName) {
  const std::string dir = testing::MakeTempDir("image_source_resolve");
  fs::create_directories(dir + "/photos");
  fs::create_directories(dir + "/frames");
  Touch(dir + "/photos/a.jpg");
  Touch(dir + "/frames/a.jpg");
  Touch(dir + "/frames/b.jpg");
  const ImageSource source({dir + "/photos", "", dir + "/frames"});
  EXPECT_EQ(source.folders().size(), 2u);  // the empty entry is dropped
  EXPECT_EQ(source.Resolve("a.jpg"), dir + "/photos/a.jpg");
  EXPECT_EQ(source.Resolve("b.jpg"), dir + "/frames/b.jpg");
}

TEST(ImageSource, MissingImageNamesTheImageAndEveryFolder) {
  const std::string dir = testing::MakeTempDir("image_source_missing");
  const ImageSource source({dir + "/photos", dir + "/frames"});
  try {
    source.Resolve("c.jpg");
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'c.jpg'"), std::string::npos) << message;
    EXPECT_NE(message.find(dir + "/photos"), std::string::npos) << message;
    EXPECT_NE(message.find(dir + "/frames"), std::string::npos) << message;
  }
  EXPECT_THROW(ImageSource().Resolve("c.jpg"), InputError);
}

TEST(ImageSource, FileRoundTripsWithAbsoluteFolders) {
  const std::string dir = testing::MakeTempDir("image_source_file");
  const std::string odd = dir + "/with \"quote\" and \\ back\tslash";
  const ImageSource source({odd, dir + "/frames/../frames"});
  const std::string path = dir + "/" + kImageSourceFileName;
  WriteImageSource(source, path);
  const ImageSource read = ReadImageSource(path);
  ASSERT_EQ(read.folders().size(), 2u);
  EXPECT_EQ(read.folders()[0], odd);
  EXPECT_EQ(read.folders()[1], dir + "/frames");  // normalised
  EXPECT_TRUE(fs::path(read.folders()[1]).is_absolute());
  // A relative folder is recorded absolute.
  WriteImageSource(ImageSource({"relative/images"}), path);
  EXPECT_EQ(ReadImageSource(path).folders()[0], (fs::current_path() / "relative/images").string());
}

TEST(ImageSource, MalformedFileIsAnInputErrorNamingIt) {
  const std::string dir = testing::MakeTempDir("image_source_bad");
  const std::string path = dir + "/" + kImageSourceFileName;
  for (const char* text : {"", "{\"folders\": [\"/a\"", "{\"dirs\": []}", "{\"folders\": [1]}",
                           "{\"folders\": []} trailing"}) {
    std::ofstream(path) << text;
    try {
      ReadImageSource(path);
      FAIL() << "accepted: " << text;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW(ReadImageSource(dir + "/absent.json"), InputError);
}

}  // namespace
}  // namespace proj
