// sfm export end to end on a hand-made model (no reconstruction): both formats, and bad input
// named with exit code 2.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sfm/image_source/image_source.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/integration/sfm_process.h"
#include "tests/sfm/export/export_test_scene.h"
#include "tests/sfm/export/nerfstudio_transforms_reader.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

struct ExportRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

ExportRun Export(const std::vector<std::string>& arguments, const std::string& log_dir) {
  std::vector<std::string> all = {"export"};
  all.insert(all.end(), arguments.begin(), arguments.end());
  ExportRun run;
  run.exit_code = testing::RunSfmToEnd(all, log_dir + "/export.log");
  run.output = testing::ReadTextFile(log_dir + "/export.log");
  return run;
}

// DIR/model (COLMAP text, with image_source.json naming DIR/images) of the synthetic scene.
std::string WriteModel(const std::string& dir, bool with_image_source) {
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/false);
  WriteColmapText(input.scene, dir + "/model");
  if (with_image_source) WriteImageSource(ImageSource({input.images_dir}), dir + "/model/" + kImageSourceFileName);
  return dir + "/model";
}

TEST(ExportCli, WritesBothFormats) {
  const std::string dir = testing::MakeTempDir("export_cli_formats");
  const std::string model = WriteModel(dir, /*with_image_source=*/true);

  const ExportRun nerfstudio = Export({"--format", "nerfstudio", model, "-o", dir + "/ns"}, dir);
  ASSERT_EQ(nerfstudio.exit_code, 0) << nerfstudio.output;
  EXPECT_NE(nerfstudio.output.find("exported 8 images"), std::string::npos) << nerfstudio.output;
  const testing::NerfstudioTransforms transforms = testing::ReadNerfstudioTransforms(dir + "/ns/transforms.json");
  EXPECT_EQ(transforms.frames.size(), 8u);
  for (const auto& frame : transforms.frames) EXPECT_TRUE(fs::exists(dir + "/ns/" + frame.file_path)) << frame.file_path;
  EXPECT_TRUE(fs::exists(dir + "/ns/sparse_pc.ply"));

  const ExportRun splats = Export({model, "-o", dir + "/3dgs", "--format", "3DGS", "--max-image-size", "100"}, dir);
  ASSERT_EQ(splats.exit_code, 0) << splats.output;
  const Scene exported = ReadColmapBinary(dir + "/3dgs/sparse/0");
  EXPECT_EQ(exported.NumRegisteredImages(), 8);
  for (const Camera& camera : exported.cameras) {
    EXPECT_EQ(camera.model, CameraModelId::kPinhole);
    EXPECT_LE(std::max(camera.width, camera.height), 100);
  }
  EXPECT_TRUE(fs::exists(dir + "/3dgs/images/sub/view_3.png"));
}

TEST(ExportCli, BadInputIsNamedWithExitCode2) {
  const std::string dir = testing::MakeTempDir("export_cli_bad");
  const std::string model = WriteModel(dir, /*with_image_source=*/false);

  const ExportRun format = Export({"--format", "nerf", model, "-o", dir + "/out"}, dir);
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_NE(format.output.find("'nerf' is not one of nerfstudio|3dgs"), std::string::npos) << format.output;

  const ExportRun missing = Export({"--format", "3dgs", dir + "/no_model", "-o", dir + "/out"}, dir);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find(dir + "/no_model"), std::string::npos) << missing.output;

  fs::create_directories(dir + "/empty");
  const ExportRun not_a_model = Export({"--format", "3dgs", dir + "/empty", "-o", dir + "/out"}, dir);
  EXPECT_EQ(not_a_model.exit_code, 2);
  EXPECT_NE(not_a_model.output.find(dir + "/empty"), std::string::npos) << not_a_model.output;

  const ExportRun no_source = Export({"--format", "nerfstudio", model, "-o", dir + "/out"}, dir);
  EXPECT_EQ(no_source.exit_code, 2);
  EXPECT_NE(no_source.output.find("--image-path"), std::string::npos) << no_source.output;

  const ExportRun no_images =
      Export({"--format", "nerfstudio", model, "-o", dir + "/out", "--image-path", dir + "/empty"}, dir);
  EXPECT_EQ(no_images.exit_code, 2);
  EXPECT_NE(no_images.output.find("view_0.png"), std::string::npos) << no_images.output;
  EXPECT_NE(no_images.output.find("nothing exported"), std::string::npos) << no_images.output;
  EXPECT_FALSE(fs::exists(dir + "/out/transforms.json"));
}

}  // namespace
}  // namespace proj
