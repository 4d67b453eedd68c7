#include "mvs/dense_view_cache.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/check.h"
#include "core/parallel_for.h"
#include "io/image_encode.h"
#include "tests/support/test_data.h"

namespace proj::mvs {
namespace {

using ::testing::HasSubstr;

Image Gradient(int width, int height, int channels) {
  Image image{width, height, channels, std::vector<uint8_t>(static_cast<size_t>(width) * height * channels)};
  for (size_t i = 0; i < image.data.size(); ++i) image.data[i] = static_cast<uint8_t>((i * 7) % 256);
  return image;
}

// A PINHOLE model of `count` registered 40x30 images named 0.png, 1.png, ... written into `dir`.
Scene WriteImages(const std::string& dir, int count) {
  Scene scene;
  scene.cameras.push_back({CameraModelId::kPinhole, 40, 30, {50, 50, 20, 15}});
  for (int i = 0; i < count; ++i) {
    SceneImage image;
    image.name = std::to_string(i) + ".png";
    image.camera_id = 0;
    image.registered = true;
    scene.images.push_back(image);
    WritePng(dir + "/" + image.name, Gradient(40, 30, 3));
  }
  return scene;
}

TEST(GreyOf, Bt601WeightsOverColourAndScaledGrey) {
  Image colour{2, 1, 3, {255, 0, 0, 10, 20, 30}};
  const std::vector<float> grey = GreyOf(colour);
  ASSERT_EQ(grey.size(), 2u);
  EXPECT_NEAR(grey[0], 0.299f, 1e-6f);
  EXPECT_NEAR(grey[1], (0.299f * 10 + 0.587f * 20 + 0.114f * 30) / 255, 1e-6f);
  Image mono{2, 1, 1, {0, 255}};
  EXPECT_EQ(GreyOf(mono), (std::vector<float>{0.0f, 1.0f}));
}

TEST(DenseViewCache, LoadsOnceAndEvictsTheLeastRecentlyUsedBeyondItsCapacity) {
  const std::string dir = testing::MakeTempDir("dense_view_cache");
  const Scene scene = WriteImages(dir, 3);
  const size_t view_bytes = 40 * 30 * sizeof(float);  // grey only
  DenseViewCache cache(scene, dir, 2 * view_bytes, /*with_colour=*/false);
  const std::shared_ptr<const DenseView> first = cache.Get(0);
  EXPECT_EQ(first->name, "0.png");
  EXPECT_EQ(first->grey.size(), 40u * 30u);
  EXPECT_TRUE(first->colour.empty());
  EXPECT_EQ(first->geometry.camera.fx, 50);
  EXPECT_EQ(cache.Get(0), first);  // cached
  cache.Get(1);
  EXPECT_EQ(cache.num_loads(), 2);
  cache.Get(0);  // 0 is now the most recent: loading 2 evicts 1
  cache.Get(2);
  EXPECT_EQ(cache.bytes_cached(), 2 * view_bytes);
  cache.Get(0);
  EXPECT_EQ(cache.num_loads(), 3);
  cache.Get(1);
  EXPECT_EQ(cache.num_loads(), 4);
  // A view handed out stays valid after its eviction.
  EXPECT_EQ(first->grey.size(), 40u * 30u);
}

TEST(DenseViewCache, ConcurrentCallersDecodeEachImageOnce) {
  const std::string dir = testing::MakeTempDir("dense_view_cache_concurrent");
  const Scene scene = WriteImages(dir, 4);
  DenseViewCache cache(scene, dir, 1 << 20, /*with_colour=*/false);
  std::vector<std::shared_ptr<const DenseView>> views(32);
  ParallelFor(0, 32, 8, [&](int i, int) { views[i] = cache.Get(i % 4); });
  EXPECT_EQ(cache.num_loads(), 4);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(views[i], views[i % 4]) << i;
}

TEST(DenseViewCache, ColourOnRequest) {
  const std::string dir = testing::MakeTempDir("dense_view_cache_colour");
  const Scene scene = WriteImages(dir, 1);
  DenseViewCache cache(scene, dir, 1 << 20, /*with_colour=*/true);
  const auto view = cache.Get(0);
  EXPECT_EQ(view->colour.channels, 3);
  EXPECT_EQ(view->colour.data, Gradient(40, 30, 3).data);
  EXPECT_EQ(DenseViewBytes(*view), 40u * 30u * (sizeof(float) + 3));
}

TEST(DenseViewCache, NamesTheFileThatIsMissingOrOfAnotherSize) {
  const std::string dir = testing::MakeTempDir("dense_view_cache_bad");
  Scene scene = WriteImages(dir, 2);
  WritePng(dir + "/1.png", Gradient(30, 40, 3));  // rotated
  DenseViewCache cache(scene, dir, 1 << 20, /*with_colour=*/false);
  try {
    cache.Get(1);
    FAIL() << "no error for an image of another size";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("1.png' is 30x40 pixels, its camera 40x30"));
  }
  std::remove((dir + "/0.png").c_str());
  try {
    cache.Get(0);
    FAIL() << "no error for a missing image";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("0.png"));
  }
}

TEST(DenseViewCache, RefusesModelsThatAreNotPinhole) {
  Scene scene;
  scene.cameras.push_back(Camera::FromFocal(CameraModelId::kSimpleRadial, 40, 30, 50));
  SceneImage image;
  image.name = "a.png";
  image.camera_id = 0;
  image.registered = true;
  scene.images.push_back(image);
  EXPECT_THROW(DenseViewCache(scene, "/nonexistent", 1 << 20, false), InputError);
}

}  // namespace
}  // namespace proj::mvs
