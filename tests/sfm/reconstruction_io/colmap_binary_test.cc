#include "sfm/reconstruction_io/colmap_binary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "core/check.h"
#include "geometry/camera/colmap_camera_models.h"
#include "io/little_endian.h"
#include "sfm/reconstruction_io/colmap_model.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/sfm/reconstruction_io/colmap_test_support.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

namespace fs = std::filesystem;
using testing::ExpectScenesEqual;
using testing::MakeSmallScene;
using testing::ReadText;

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(bytes.data(), bytes.size());
}

// The small scene plus a RADIAL camera and a registered image on it, so every camera model,
// an unregistered image and points with tracks are in the model.
Scene MakeAllModelsScene() {
  Scene scene = MakeSmallScene();
  Camera radial;
  radial.model = CameraModelId::kRadial;
  radial.width = 1024;
  radial.height = 768;
  radial.params = {900.125, 512, 384, 0.01, -0.002};
  scene.cameras.push_back(radial);
  SceneImage d;
  d.name = "sub/d image.png";
  d.camera_id = 2;
  d.registered = true;
  d.cam_from_world =
      Rigid3d(Eigen::Quaterniond(0.9, 0.1, -0.3, 0.2).normalized(), Eigen::Vector3d(-4, 0.1, 1e-9));
  d.keypoints = {{100.25, 200.75}, {1 / 3.0, 2 / 3.0}};
  d.point3d_ids.assign(d.keypoints.size(), kInvalidId);
  scene.images.push_back(d);
  scene.AddObservation(2, {3, 1});
  return scene;
}

TEST(ColmapBinary, RoundTripEqualsTextRoundTrip) {
  for (const Scene& scene :
       {MakeAllModelsScene(), testing::MakeSyntheticScene(testing::SyntheticSceneOptions{})}) {
    const std::string text_dir = testing::MakeTempDir("colmap_binary_vs_text_txt");
    const std::string binary_dir = testing::MakeTempDir("colmap_binary_vs_text_bin");
    WriteColmapText(scene, text_dir);
    WriteColmapBinary(scene, binary_dir);
    // No temporary files left behind by the atomic writes.
    EXPECT_EQ(std::distance(fs::directory_iterator(binary_dir), fs::directory_iterator{}), 3);
    const Scene from_text = ReadColmapText(text_dir);
    const Scene from_binary = ReadColmapBinary(binary_dir);
    ExpectScenesEqual(from_text, from_binary);
    EXPECT_EQ(from_text.next_point_id, from_binary.next_point_id);
  }
}

TEST(ColmapBinary, UnregisteredImagesAndTheirObservationsAreLeftOut) {
  const std::string dir = testing::MakeTempDir("colmap_binary_unregistered");
  WriteColmapBinary(MakeAllModelsScene(), dir);
  const Scene read = ReadColmapBinary(dir);
  ASSERT_EQ(read.images.size(), 4u);
  EXPECT_FALSE(read.images[1].registered);  // a placeholder for the gap at IMAGE_ID 2
  EXPECT_TRUE(read.images[1].name.empty());
  EXPECT_EQ(read.images[3].name, "sub/d image.png");
  EXPECT_EQ(read.cameras[2].model, CameraModelId::kRadial);
  ASSERT_EQ(read.points.count(2), 1u);
  EXPECT_EQ(read.points.at(2).track.size(), 3u);  // (0, 2), (2, 1), (3, 1); not (1, 0)
  EXPECT_EQ(read.points.count(1), 0u);
  EXPECT_EQ(read.next_point_id, 3);
}

TEST(ColmapBinary, TextToBinaryToTextIsIdentical) {
  const std::string first = testing::MakeTempDir("colmap_t2b2t_first");
  const std::string binary = testing::MakeTempDir("colmap_t2b2t_binary");
  const std::string second = testing::MakeTempDir("colmap_t2b2t_second");
  WriteColmapText(testing::MakeSyntheticScene(testing::SyntheticSceneOptions{}), first);
  WriteColmapBinary(ReadColmapText(first), binary);
  WriteColmapText(ReadColmapBinary(binary), second);
  for (const char* name : {"cameras.txt", "images.txt", "points3D.txt"}) {
    EXPECT_EQ(ReadText(first + "/" + name), ReadText(second + "/" + name)) << name;
  }
}

TEST(ColmapBinary, CameraModelIdsAreColmaps) {
  EXPECT_EQ(ColmapCameraModelId(CameraModelId::kPinhole), 1);
  EXPECT_EQ(ColmapCameraModelId(CameraModelId::kSimpleRadial), 2);
  EXPECT_EQ(ColmapCameraModelId(CameraModelId::kRadial), 3);
  EXPECT_EQ(FindColmapCameraModel(2)->ours, CameraModelId::kSimpleRadial);
  EXPECT_EQ(FindColmapCameraModel(0)->ours, CameraModelId::kPinhole);  // SIMPLE_PINHOLE
  EXPECT_FALSE(FindColmapCameraModel(4)->ours.has_value());           // OPENCV
  EXPECT_EQ(FindColmapCameraModel(11), nullptr);
}

// SIMPLE_PINHOLE f, cx, cy is read as PINHOLE f, f, cx, cy by both model readers, as by the
// scene database (SceneDatabase.ReadsColmapSimplePinholeAsPinhole).
TEST(ColmapModel, SimplePinholeIsReadAsPinholeFromTextAndBinary) {
  const std::string text = testing::MakeTempDir("colmap_simple_pinhole_text");
  testing::WriteText(text + "/cameras.txt", "1 SIMPLE_PINHOLE 800 600 800 400 300\n");
  testing::WriteText(text + "/images.txt", "");
  testing::WriteText(text + "/points3D.txt", "");

  const std::string binary = testing::MakeTempDir("colmap_simple_pinhole_binary");
  std::string cameras;
  AppendLittleEndian<uint64_t>(1, &cameras);  // count
  AppendLittleEndian<uint32_t>(1, &cameras);  // CAMERA_ID
  AppendLittleEndian<int32_t>(0, &cameras);   // MODEL_ID: SIMPLE_PINHOLE
  AppendLittleEndian<uint64_t>(800, &cameras);
  AppendLittleEndian<uint64_t>(600, &cameras);
  for (const double param : {800.0, 400.0, 300.0}) AppendLittleEndian<double>(param, &cameras);
  WriteBytes(binary + "/cameras.bin", cameras);
  const std::string no_records(8, '\0');
  WriteBytes(binary + "/images.bin", no_records);
  WriteBytes(binary + "/points3D.bin", no_records);

  for (const Scene& scene : {ReadColmapText(text), ReadColmapBinary(binary)}) {
    ASSERT_EQ(scene.cameras.size(), 1u);
    EXPECT_EQ(scene.cameras[0].model, CameraModelId::kPinhole);
    EXPECT_EQ(scene.cameras[0].width, 800);
    EXPECT_EQ(scene.cameras[0].height, 600);
    EXPECT_EQ(scene.cameras[0].params, (std::vector<double>{800, 800, 400, 300}));
  }
}

// Expects ReadColmapBinary(dir) to throw InputError mentioning every string in `fragments`.
void ExpectReadError(const std::string& dir, const std::vector<std::string>& fragments) {
  testing::ExpectInputError([&] { ReadColmapBinary(dir); }, fragments);
}

TEST(ColmapBinary, EveryTruncationIsAnInputErrorNamingTheFile) {
  const std::string good = testing::MakeTempDir("colmap_binary_truncate_good");
  WriteColmapBinary(MakeAllModelsScene(), good);
  for (const char* name : {"cameras.bin", "images.bin", "points3D.bin"}) {
    const std::string bytes = ReadText(good + "/" + name);
    const std::string dir = testing::MakeTempDir("colmap_binary_truncated");
    for (const char* other : {"cameras.bin", "images.bin", "points3D.bin"}) {
      fs::copy_file(fs::path(good) / other, fs::path(dir) / other);
    }
    for (size_t size = 0; size < bytes.size(); ++size) {
      WriteBytes(dir + "/" + name, bytes.substr(0, size));
      ExpectReadError(dir, {name});
    }
  }
}

// Writes the all-models scene, lets `corrupt` change the bytes of `name`, expects an error.
void ExpectCorruptionRefused(const std::string& name,
                             const std::function<void(std::string*)>& corrupt,
                             const std::vector<std::string>& fragments) {
  const std::string dir = testing::MakeTempDir("colmap_binary_corrupt");
  WriteColmapBinary(MakeAllModelsScene(), dir);
  std::string bytes = ReadText(dir + "/" + name);
  corrupt(&bytes);
  WriteBytes(dir + "/" + name, bytes);
  ExpectReadError(dir, fragments);
}

void Overwrite(std::string* bytes, size_t offset, uint64_t value, size_t size) {
  std::string encoded;
  AppendLittleEndian<uint64_t>(value, &encoded);
  bytes->replace(offset, size, encoded.substr(0, size));
}

TEST(ColmapBinary, CorruptFilesAreInputErrorsNamingFileAndReason) {
  // A huge count is refused before anything is allocated for it.
  ExpectCorruptionRefused("points3D.bin", [](std::string* b) { Overwrite(b, 0, ~0ull, 8); },
                          {"points3D.bin", "point count", "corrupt"});
  ExpectCorruptionRefused("images.bin", [](std::string* b) { Overwrite(b, 0, 1ull << 40, 8); },
                          {"images.bin", "image count"});
  // Camera 1's MODEL_ID (after the count and CAMERA_ID) set to OPENCV.
  ExpectCorruptionRefused("cameras.bin", [](std::string* b) { Overwrite(b, 12, 4, 4); },
                          {"cameras.bin", "byte 16", "unsupported camera model id 4 (OPENCV)"});
  // Image 1's CAMERA_ID (after count, IMAGE_ID and 7 doubles) set to 9.
  ExpectCorruptionRefused("images.bin", [](std::string* b) { Overwrite(b, 68, 9, 4); },
                          {"images.bin", "CAMERA_ID 9 is not in cameras.bin"});
  // The last image's name loses its terminator and everything after it.
  ExpectCorruptionRefused("images.bin",
                          [](std::string* b) { b->resize(b->find("sub/d image.png") + 15); },
                          {"images.bin", "terminating zero"});
  ExpectCorruptionRefused("points3D.bin", [](std::string* b) { b->push_back('x'); },
                          {"points3D.bin", "1 bytes after the last record"});
  // Point 1's first track element (count 8, id 8, xyz 24, rgb 3, error 8, length 8) names
  // keypoint 2 of image 1, which observes point 3.
  ExpectCorruptionRefused("points3D.bin", [](std::string* b) { Overwrite(b, 63, 2, 4); },
                          {"points3D.bin", "disagrees with images.bin"});
  // Image 1's first POINT3D_ID set to a point that does not exist.
  ExpectCorruptionRefused("images.bin", [](std::string* b) { Overwrite(b, 72 + 6 + 8 + 16, 7, 8); },
                          {"images.bin", "POINT3D_ID 7", "points3D.bin"});
  const std::string empty = testing::MakeTempDir("colmap_binary_missing");
  ExpectReadError(empty, {"cameras.bin"});
}

// Found by fuzzing (tests/fuzz/colmap_binary_fuzzer.cc): ids index vectors, so a 60-byte file
// naming CAMERA_ID or IMAGE_ID 2^30 asked for tens of gigabytes of placeholders. Such ids are
// refused before anything is allocated.
TEST(ColmapBinary, HugeCameraAndImageIdsAreRefused) {
  // Camera 1's CAMERA_ID (after the count).
  ExpectCorruptionRefused("cameras.bin", [](std::string* b) { Overwrite(b, 8, 1u << 30, 4); },
                          {"cameras.bin", "CAMERA_ID 1073741824 too large"});
  // Image 1's IMAGE_ID (after the count).
  ExpectCorruptionRefused("images.bin", [](std::string* b) { Overwrite(b, 8, (1u << 20) + 1, 4); },
                          {"images.bin", "IMAGE_ID 1048577 too large"});
}

TEST(ColmapModel, ReadsEitherFormatAndPrefersText) {
  const std::string dir = testing::MakeTempDir("colmap_model_either");
  EXPECT_THROW(ReadColmapModel(dir), InputError);
  WriteColmapBinary(MakeAllModelsScene(), dir);
  EXPECT_EQ(ReadColmapModel(dir).images.size(), 4u);
  WriteColmapText(MakeSmallScene(), dir);
  EXPECT_EQ(ReadColmapModel(dir).images.size(), 3u);
}

}  // namespace
}  // namespace proj
