// The `sfm` program as users run it: bad input is reported and skipped or refused with the
// documented exit codes, never a crash.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/sfm/ba/synthetic_scene.h"
#include "tests/integration/small_scene.h"
#include "tests/io/video_test_files.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// `prefix` goes before the program (e.g. "env PATH=/somewhere ").
RunResult RunSfm(const std::string& arguments, const std::string& prefix = "") {
  // One log folder per test: CTest runs the tests of this file in parallel.
  const std::string test_name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string log = testing::MakeTempDir("cli_log_" + test_name) + "/out.txt";
  const std::string command = prefix + testing::BuiltExecutable("sfm") + " " + arguments + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  result.output = text.str();
  return result;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Cli, MixedFolderReconstructsFromRealPhotosAndNamesBadFiles) {
  PROJ_REQUIRE_SHARED_DATASET(images, "strecha/fountain-P11/images");
  const std::string dir = testing::MakeTempDir("cli_mixed");
  const std::string in = dir + "/images";
  fs::create_directories(in);
  for (const char* name : {"0003.jpg", "0004.jpg", "0005.jpg", "0006.jpg"}) {
    fs::copy_file(images + "/" + name, in + "/" + name);
  }
  {  // a truncated JPEG: the first half of a real one
    const std::string bytes = ReadFile(images + "/0007.jpg");
    std::ofstream(in + "/truncated.jpg", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  std::ofstream(in + "/empty.jpg").close();
  std::ofstream(in + "/notes.jpg") << "this is a text file, not a photo\n";
  const RunResult run =
      RunSfm("reconstruct " + in + " -o " + dir + "/out --device cpu --max-image-size 1000 --threads 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* bad : {"truncated.jpg", "empty.jpg", "notes.jpg"}) {
    EXPECT_NE(run.output.find(bad), std::string::npos) << bad << " not named:\n" << run.output;
  }
  const std::string report = ReadFile(dir + "/out/report.json");
  EXPECT_NE(report.find("\"registered_images\": 4"), std::string::npos) << report;
  EXPECT_NE(report.find("truncated.jpg"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/out/points.ply"));
  EXPECT_TRUE(fs::exists(dir + "/out/model/points3D.txt"));
}

TEST(Cli, FewerThanTwoUsableImagesIsExitCode2) {
  const std::string dir = testing::MakeTempDir("cli_one_image");
  fs::create_directories(dir + "/images");
  std::ofstream(dir + "/images/a.jpg") << "not an image";
  std::ofstream(dir + "/images/b.png").close();
  const RunResult run = RunSfm("reconstruct " + dir + "/images -o " + dir + "/out --device cpu");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("at least two"), std::string::npos) << run.output;
}

TEST(Cli, MissingFolderIsExitCode2) {
  const RunResult run = RunSfm("reconstruct /nonexistent/folder -o /tmp/unused_out --device cpu");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("/nonexistent/folder"), std::string::npos) << run.output;
}

TEST(Cli, UnwritableOutputFolderIsExitCode2) {
  const std::string dir = testing::MakeTempDir("cli_unwritable");
  fs::create_directories(dir + "/images");
  std::ofstream(dir + "/blocker") << "a file where the output folder's parent should be";
  // Works as root too: nothing can create a folder below a regular file.
  const RunResult run = RunSfm("reconstruct " + dir + "/images -o " + dir + "/blocker/out --device cpu");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("blocker/out"), std::string::npos) << run.output;
}

// sfm filter: bad input is named with its reason (exit 2); a small real photo is filtered.
TEST(Cli, FilterNamesBadInputAndWritesAPng) {
  PROJ_REQUIRE_SHARED_DATASET(photo, "strecha/fountain-P11/images/0005.jpg");
  const std::string dir = testing::MakeTempDir("cli_filter");
  const RunResult zero = RunSfm("filter " + photo + " " + dir + "/out.png --trilateral 0");
  EXPECT_EQ(zero.exit_code, 2) << zero.output;
  EXPECT_NE(zero.output.find("must be a positive number of pixels (got '0')"), std::string::npos)
      << zero.output;
  const RunResult missing = RunSfm("filter " + dir + "/none.jpg " + dir + "/out.png --trilateral 3");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("none.jpg"), std::string::npos) << missing.output;
  {
    const std::string bytes = ReadFile(photo);
    std::ofstream(dir + "/truncated.jpg", std::ios::binary) << bytes.substr(0, 2000);
  }
  const RunResult truncated = RunSfm("filter " + dir + "/truncated.jpg " + dir + "/out.png --trilateral 3");
  EXPECT_EQ(truncated.exit_code, 2) << truncated.output;
  EXPECT_NE(truncated.output.find("truncated"), std::string::npos) << truncated.output;
  EXPECT_FALSE(fs::exists(dir + "/out.png"));
  // A 96x64 crop of the photo as PNG: filtered and written (on the CPU when there is no GPU).
  const Image photo_image = ReadImageFile(photo);
  Image crop;
  crop.width = 96;
  crop.height = 64;
  crop.channels = photo_image.channels;
  for (int y = 0; y < crop.height; ++y) {
    const uint8_t* row = photo_image.pixel(1500, 1000 + y);
    crop.data.insert(crop.data.end(), row, row + crop.width * crop.channels);
  }
  WritePng(dir + "/crop.png", crop);
  const RunResult ok = RunSfm("filter " + dir + "/crop.png " + dir + "/out.png --trilateral 3");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  const Image out = ReadImageFile(dir + "/out.png");
  EXPECT_EQ(out.width, 96);
  EXPECT_EQ(out.height, 64);
}

TEST(Cli, GpuWithoutGpuIsAClearError) {
  const std::string dir = testing::MakeTempDir("cli_gpu");
  fs::create_directories(dir + "/images");
  const RunResult probe = RunSfm("reconstruct " + dir + "/images -o " + dir + "/out --device gpu");
  if (probe.output.find("no GPU") == std::string::npos) {
    GTEST_SKIP() << "a GPU is present; nothing to check";
  }
  EXPECT_EQ(probe.exit_code, 2) << probe.output;
}

TEST(Cli, GpuBundleAdjustmentWithoutGpuIsAClearError) {
  const std::string dir = testing::MakeTempDir("cli_ba_gpu");
  fs::create_directories(dir + "/images");
  for (const std::string flag : {"--ba-solver gpu", "--gpu-bundle-adjustment"}) {
    const RunResult probe = RunSfm("reconstruct " + dir + "/images -o " + dir + "/out " + flag);
    if (probe.output.find("no GPU") == std::string::npos) {
      GTEST_SKIP() << "a GPU is present; nothing to check";
    }
    EXPECT_EQ(probe.exit_code, 2) << probe.output;
    EXPECT_NE(probe.output.find("--ba-solver gpu"), std::string::npos) << probe.output;
  }
  const RunResult help = RunSfm("reconstruct --help");
  EXPECT_NE(help.output.find("--ba-solver auto|ceres|cpu|gpu"), std::string::npos) << help.output;
}

TEST(Cli, BadGpusValuesAreNamedWithExitCode2) {
  const std::string dir = testing::MakeTempDir("cli_gpus");
  fs::create_directories(dir + "/images");
  const std::pair<std::string, std::string> cases[] = {
      {"reconstruct " + dir + "/images -o " + dir + "/out --gpus two", "--gpus 'two': expected all, a number"},
      {"extract " + dir + "/images --database " + dir + "/db.db --gpus 0,0", "--gpus 0,0: a device is listed twice"},
      {"match --database " + dir + "/db.db --gpus 0", "--gpus 0: the number of GPUs must be at least 1"},
      {"extract " + dir + "/images --database " + dir + "/db.db --device cpu --gpus 2",
       "--gpus 2 asks for GPUs but --device cpu runs on the CPU"},
      {"extract " + dir + "/images --database " + dir + "/db.db --gpus 64", "--gpus 64"},
  };
  for (const auto& [arguments, message] : cases) {
    const RunResult run = RunSfm(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << arguments << "\n" << run.output;
  }
  for (const std::string command : {"reconstruct", "extract", "match"}) {
    const RunResult help = RunSfm(command + " --help");
    EXPECT_NE(help.output.find("--gpus all|N|LIST"), std::string::npos) << help.output;
  }
}

TEST(Cli, KeyframeSiftWithoutKltIsExitCode2) {
  const std::string dir = testing::MakeTempDir("cli_keyframe_sift");
  fs::create_directories(dir + "/images");
  const RunResult run =
      RunSfm("reconstruct " + dir + "/images -o " + dir + "/out --device cpu --klt-keyframe-sift");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--klt-keyframe-sift needs --matcher klt"), std::string::npos) << run.output;
  const RunResult help = RunSfm("reconstruct --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--klt-keyframe-interval"), std::string::npos) << help.output;
}

// The stages as sub-commands on one database: extract, match, map; a second match reuses
// every pair, and a second reconstruct says that it skipped extraction and matching.
TEST(Cli, StagesRunApartOnOneDatabase) {
  const std::string dir = testing::WriteSmallRingScene("cli_stages", 12);
  const std::string database = dir + "/scene.db";
  const std::string common = " --database " + database + " --device cpu --threads 2";
  const RunResult extract = RunSfm("extract " + dir + "/images" + common + " --max-features 2048");
  ASSERT_EQ(extract.exit_code, 0) << extract.output;
  EXPECT_NE(extract.output.find("extracted 12 images"), std::string::npos) << extract.output;
  const RunResult match = RunSfm("match" + common + " --no-verify");
  ASSERT_EQ(match.exit_code, 0) << match.output;
  EXPECT_NE(match.output.find("matched 66 pairs (0 reused), not verified (--no-verify)"), std::string::npos)
      << match.output;
  const RunResult verify = RunSfm("match" + common);
  ASSERT_EQ(verify.exit_code, 0) << verify.output;
  EXPECT_NE(verify.output.find("matched 0 pairs (66 reused), verified 66 (0 reused)"), std::string::npos)
      << verify.output;
  const RunResult again = RunSfm("match" + common);
  EXPECT_NE(again.output.find("matched 0 pairs (66 reused), verified 0 (66 reused)"), std::string::npos)
      << again.output;
  const RunResult map = RunSfm("map" + common + " -o " + dir + "/out --image-path " + dir + "/images");
  ASSERT_EQ(map.exit_code, 0) << map.output;
  EXPECT_NE(ReadFile(dir + "/out/report.json").find("\"registered_images\": 12"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir + "/out/points.ply"));
  EXPECT_NE(ReadFile(dir + "/out/report.html").find("Reconstruction report"), std::string::npos);

  const RunResult reconstruct = RunSfm("reconstruct " + dir + "/images -o " + dir + "/out2" + common +
                                       " --max-features 2048");
  ASSERT_EQ(reconstruct.exit_code, 0) << reconstruct.output;
  EXPECT_NE(reconstruct.output.find("12 unchanged in the database, 0 to extract"), std::string::npos)
      << reconstruct.output;
  EXPECT_NE(reconstruct.output.find("66 already in the database, 0 to match"), std::string::npos)
      << reconstruct.output;
  const RunResult changed = RunSfm("extract " + dir + "/images" + common + " --max-features 1000");
  EXPECT_EQ(changed.exit_code, 2) << changed.output;
  EXPECT_NE(changed.output.find("--max-features was 2048, this run asks for 1000"), std::string::npos)
      << changed.output;
}

TEST(Cli, RenderDrawsAModelAndNamesABadModelFolder) {
  const std::string dir = testing::MakeTempDir("cli_render");
  const RunResult missing = RunSfm("render " + dir + "/no_model " + dir + "/a.png");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find(dir + "/no_model"), std::string::npos) << missing.output;
  fs::create_directories(dir + "/empty");
  const RunResult empty = RunSfm("render " + dir + "/empty " + dir + "/a.png");
  EXPECT_EQ(empty.exit_code, 2) << empty.output;
  EXPECT_NE(empty.output.find(dir + "/empty/cameras.txt"), std::string::npos) << empty.output;
  EXPECT_FALSE(fs::exists(dir + "/a.png"));

  Scene scene = testing::MakeSyntheticScene(testing::SyntheticSceneOptions{});
  for (auto& [id, point] : scene.points) point.color.setConstant(128);
  WriteColmapText(scene, dir + "/model");
  const RunResult bad_size = RunSfm("render " + dir + "/model " + dir + "/a.png --point-size 0");
  EXPECT_EQ(bad_size.exit_code, 2) << bad_size.output;
  const RunResult run = RunSfm("render " + dir + "/model " + dir + "/picture.png --width 320 "
                               "--height 240 --azimuth 30 --elevation 10 --point-size 3");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const Image picture = ReadImageFile(dir + "/picture.png");
  EXPECT_EQ(picture.width, 320);
  EXPECT_EQ(picture.height, 240);
  int num_point_pixels = 0;
  for (int y = 0; y < picture.height; ++y) {
    for (int x = 0; x < picture.width; ++x) num_point_pixels += picture.pixel(x, y)[0] == 128;
  }
  EXPECT_GT(num_point_pixels, 200);
}

TEST(Cli, UnusableDatabaseIsExitCode2NamingTheFile) {
  const std::string dir = testing::MakeTempDir("cli_bad_database");
  const RunResult missing = RunSfm("map --database " + dir + "/missing.db -o " + dir + "/out");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find(dir + "/missing.db"), std::string::npos) << missing.output;
  std::ofstream(dir + "/text.db") << "not a database";
  fs::create_directories(dir + "/images");
  const RunResult text = RunSfm("extract " + dir + "/images --database " + dir + "/text.db");
  EXPECT_EQ(text.exit_code, 2) << text.output;
  EXPECT_NE(text.output.find(dir + "/text.db"), std::string::npos) << text.output;
  EXPECT_EQ(ReadFile(dir + "/text.db"), "not a database");
}

TEST(Cli, HelpExplainsExitCodes) {
  const RunResult run = RunSfm("--help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("Exit codes"), std::string::npos);
}

TEST(Cli, VersionAndHelpThatReadsWell) {
  const RunResult version = RunSfm("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.output.rfind("sfm ", 0), 0u) << version.output;
  const RunResult help = RunSfm("reconstruct --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--device auto|cpu|gpu"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("[auto]"), std::string::npos) << help.output;
  EXPECT_EQ(help.output.find("ENUM"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("--quiet"), std::string::npos) << help.output;
  const RunResult bad = RunSfm("reconstruct in -o out --device tpu");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("'tpu' is not one of auto|cpu|gpu"), std::string::npos) << bad.output;
}

TEST(Cli, QuietAndVerboseAfterTheSubCommand) {
  for (const char* flag : {"--quiet", "-q", "--verbose"}) {
    const RunResult run = RunSfm(std::string("reconstruct /nonexistent/folder -o /tmp/unused_out ") + flag);
    EXPECT_EQ(run.exit_code, 2) << flag;
    EXPECT_EQ(run.output.find("not expected"), std::string::npos) << run.output;  // parsed
    EXPECT_NE(run.output.find("/nonexistent/folder"), std::string::npos) << run.output;
  }
}

// Photos and videos in one folder: bad videos are named with their reason and skipped, the
// good video's frames join the photos.
TEST(Cli, FolderOfPhotosAndVideosNamesBadVideos) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("cli_videos");
  const std::string in = dir + "/input";
  fs::create_directories(in);
  testing::RunFfmpeg({"-f", "lavfi", "-i", "testsrc=size=160x120", "-frames:v", "1", in + "/photo_a.jpg"});
  testing::RunFfmpeg({"-f", "lavfi", "-i", "mandelbrot=size=160x120", "-frames:v", "1", in + "/photo_b.jpg"});
  testing::WriteTestPatternVideo(in + "/ride.mp4", 2, 10);  // 4 frames at --video-fps 2
  std::ofstream(in + "/empty.mp4").close();
  testing::WriteTruncatedCopy(in + "/ride.mp4", 0.5, in + "/cut.mov");
  std::ofstream(in + "/notes.mkv") << "not a video\n";
  const RunResult run = RunSfm("extract " + in + " --database " + dir + "/database.db --device cpu --video-fps 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("skipping video 'empty.mp4': empty file"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("cut.mov': not a readable video"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("notes.mkv': not a readable video"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("the database holds 6 images"), std::string::npos) << run.output;
  EXPECT_TRUE(fs::exists(dir + "/frames/ride.mp4.000003.jpg"));
  EXPECT_NE(testing::ReadTextFile(dir + "/frames/ride.mp4.frames.csv").find("ride.mp4.000003.jpg,1.500000"),
            std::string::npos);
}

TEST(Cli, BadVideoAloneIsExitCode2NamingIt) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("cli_bad_video");
  testing::WriteTestPatternVideo(dir + "/whole.mp4", 2, 10, {"-movflags", "+faststart"});
  testing::WriteZeroedMediaCopy(dir + "/whole.mp4", dir + "/zeroed.mp4");
  RunResult run = RunSfm("reconstruct " + dir + "/zeroed.mp4 -o " + dir + "/out --device cpu");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("zeroed.mp4': no decodable frames"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir + "/out/points.ply"));
  std::ofstream(dir + "/photo.jpg") << "x";
  run = RunSfm("reconstruct " + dir + "/photo.jpg -o " + dir + "/out --device cpu");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("photo.jpg' is not a folder of photos and not a video"), std::string::npos) << run.output;
}

// Without ffmpeg a video is refused by name; photo folders work as before.
TEST(Cli, WithoutFfmpegVideosAreNamedAndPhotosStillWork) {
  PROJ_REQUIRE_FFMPEG();  // to make the video
  const std::string dir = testing::MakeTempDir("cli_no_ffmpeg");
  testing::WriteTestPatternVideo(dir + "/ride.mp4", 1, 10);
  fs::create_directories(dir + "/photos");
  fs::create_directories(dir + "/no_programs");
  testing::RunFfmpeg({"-f", "lavfi", "-i", "testsrc=size=160x120", "-frames:v", "1", dir + "/photos/a.jpg"});
  testing::RunFfmpeg({"-f", "lavfi", "-i", "mandelbrot=size=160x120", "-frames:v", "1", dir + "/photos/b.jpg"});
  const std::string no_ffmpeg = "env PATH=" + dir + "/no_programs ";
  RunResult run = RunSfm("extract " + dir + "/ride.mp4 --database " + dir + "/video.db --device cpu", no_ffmpeg);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("ride.mp4': cannot read the video: the program 'ffprobe' is not installed"),
            std::string::npos)
      << run.output;
  run = RunSfm("extract " + dir + "/photos --database " + dir + "/photos.db --device cpu", no_ffmpeg);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("the database holds 2 images"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace proj
