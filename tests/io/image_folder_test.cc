#include "io/image_folder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/check.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

TEST(ImageFolder, ListsImagesSortedAndSkipsOthers) {
  const std::string dir = testing::MakeTempDir("image_folder");
  for (const char* name : {"b.JPG", "a.png", "c.jpeg", "0010.jpg", "0002.jpg", "K.txt", ".hidden.jpg",
                           "notes.jpg.txt", "D.PnG"}) {
    std::ofstream(dir + "/" + name) << "x";
  }
  std::filesystem::create_directory(dir + "/folder.jpg");
  const std::vector<std::string> files = ListImageFiles(dir);
  std::vector<std::string> names;
  for (const auto& file : files) names.push_back(Name(file));
  EXPECT_THAT(names, ElementsAre("0002.jpg", "0010.jpg", "D.PnG", "a.png", "b.JPG", "c.jpeg"));
  EXPECT_EQ(files[0], (std::filesystem::path(dir) / "0002.jpg").string());
}

TEST(ImageFolder, ListsVideosSortedApartFromImages) {
  const std::string dir = testing::MakeTempDir("video_folder");
  for (const char* name : {"ride.MP4", "a.jpg", "b.mov", "clip.mkv", "notes.mp4.txt", ".hidden.mp4"}) {
    std::ofstream(dir + "/" + name) << "x";
  }
  std::vector<std::string> names;
  for (const auto& file : ListVideoFiles(dir)) names.push_back(Name(file));
  EXPECT_THAT(names, ElementsAre("b.mov", "clip.mkv", "ride.MP4"));
  EXPECT_THAT(ListImageFiles(dir), ElementsAre(dir + "/a.jpg"));
}

TEST(ImageFolder, StrechaFolderSkipsKTxt) {
  PROJ_REQUIRE_SHARED_DATASET(dir, "strecha/fountain-P11/images");
  const std::vector<std::string> files = ListImageFiles(dir);
  ASSERT_EQ(files.size(), 11u);
  EXPECT_EQ(Name(files.front()), "0000.jpg");
  EXPECT_EQ(Name(files.back()), "0010.jpg");
}

TEST(ImageFolder, MissingOrNotAFolder) {
  const std::string dir = testing::MakeTempDir("image_folder_errors");
  try {
    ListImageFiles(dir + "/nope");
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("nope"));
    EXPECT_THAT(error.what(), HasSubstr("does not exist"));
  }
  std::ofstream(dir + "/file.jpg") << "x";
  EXPECT_THROW(ListImageFiles(dir + "/file.jpg"), InputError);
  std::filesystem::create_directory(dir + "/empty");
  EXPECT_TRUE(ListImageFiles(dir + "/empty").empty());
}

}  // namespace
}  // namespace proj
