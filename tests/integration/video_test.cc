// A video of a synthetic sequence (encoded by ffmpeg at test time) reconstructs as its image
// folder does: every frame registered, errors within the folder's, each frame's time in the
// outputs, the frames reused by a re-run. Skipped without ffmpeg.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "sfm/outputs/report_json.h"
#include "sfm/pipeline/reconstruction_pipeline.h"
#include "sfm/scene/evaluation.h"
#include "sfm/stages/input_stage.h"
#include "tests/io/video_test_files.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

// The sequence the test encodes; point the test at another synthetic sequence here.
SyntheticSceneOptions VideoTestSequence() {
  SyntheticSceneOptions scene;
  scene.sequence = true;
  scene.num_frames = 40;  // of the 80-frame default: two reconstructions on two cores
  scene.width = 640;
  scene.height = 480;
  scene.focal_px = 550;
  return scene;
}
constexpr int kVideoFps = 10;

// gt_dir/NNNN.jpg.camera as gt_video_dir/VIDEO.NNNNNN.jpg.camera: frame k of the video is
// image k of the sequence.
void CopyGroundTruthForFrames(const std::string& gt_dir, const std::string& video, int num_frames,
                              const std::string& gt_video_dir) {
  fs::create_directories(gt_video_dir);
  for (int k = 0; k < num_frames; ++k) {
    char frame[32];
    std::snprintf(frame, sizeof(frame), "%06d", k);
    fs::copy_file(fs::path(gt_dir) / (SyntheticImageName(k) + ".camera"),
                  fs::path(gt_video_dir) / (video + "." + frame + ".jpg.camera"));
  }
}

TEST(Video, ReconstructsLikeItsImageFolderWithFrameTimes) {
  PROJ_REQUIRE_FFMPEG();
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = testing::MakeTempDir("video_sequence");
  const SyntheticSceneOptions scene = VideoTestSequence();
  WriteSyntheticScene(scene, dir);
  for (const char* folder : {"/video", "/folder_out", "/video_out"}) fs::create_directories(dir + folder);
  const std::string video = dir + "/video/sequence.mp4";
  testing::EncodeImageSequence(dir + "/images", kVideoFps, video);

  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.correspondences = CorrespondenceSource::kKltTracks;
  options.video.frames_per_second = 0;  // every frame
  const ReconstructionResult from_folder =
      BuildReconstruction(options, dir + "/images", dir + "/folder_out/database.db");
  const ReconstructionResult from_video = BuildReconstruction(options, video, dir + "/video_out/database.db");
  ASSERT_TRUE(from_folder.mapper.success) << from_folder.mapper.failure_reason;
  ASSERT_TRUE(from_video.mapper.success) << from_video.mapper.failure_reason;

  const int n = scene.num_frames;
  ASSERT_EQ(from_video.video_frames.size(), static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) EXPECT_NEAR(from_video.video_frames[k].time_s, k / double(kVideoFps), 1e-4);
  EXPECT_EQ(from_video.frames_dir, dir + "/video_out/frames");
  CopyGroundTruthForFrames(dir + "/gt_dense_cameras", "sequence.mp4", n, dir + "/gt_video");
  const PoseEvaluation folder = EvaluateAgainstGroundTruth(from_folder.scene, dir + "/gt_dense_cameras");
  const PoseEvaluation frames = EvaluateAgainstGroundTruth(from_video.scene, dir + "/gt_video");
  EXPECT_EQ(folder.num_registered, n);
  EXPECT_EQ(frames.num_registered, n);
  EXPECT_LT(frames.max_rotation_error_deg, std::max(0.1, 2 * folder.max_rotation_error_deg));
  EXPECT_LT(frames.median_position_error, std::max(0.02, 2 * folder.median_position_error));
  std::cerr << "folder: max rotation error " << folder.max_rotation_error_deg << " deg, median position error "
            << folder.median_position_error << "; video: " << frames.max_rotation_error_deg << " deg, "
            << frames.median_position_error << "\n";

  // report.json names each frame with its time.
  WriteReport(from_video, RunDescription{video, "cpu", "test"}, dir + "/report.json");
  const std::string report = testing::ReadTextFile(dir + "/report.json");
  EXPECT_NE(report.find("{\"name\": \"sequence.mp4.000013.jpg\", \"video\": \"sequence.mp4\", \"time_s\": 1.3}"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("\"codec\": \"h264\""), std::string::npos);

  // A re-run decodes nothing and reuses the tracks.
  SceneDatabase database(dir + "/video_out/database.db", SceneDatabase::Mode::kReadWrite);
  const ExtractionStageSummary rerun = RunExtractionStage(options.Resolve(), video, &database);
  ASSERT_EQ(rerun.videos.size(), 1u);
  EXPECT_TRUE(rerun.videos[0].reused);
  EXPECT_TRUE(rerun.counts.sequence_reused);
  EXPECT_EQ(rerun.video_frames.size(), static_cast<size_t>(n));

  // Another rate: the video is decoded again and the frames of the first run are gone.
  options.video.frames_per_second = 2;
  const ExtractionStageSummary fewer = RunExtractionStage(options.Resolve(), video, &database);
  EXPECT_FALSE(fewer.videos[0].reused);
  EXPECT_EQ(fewer.video_frames.size(), 8u);
  EXPECT_FALSE(fs::exists(dir + "/video_out/frames/sequence.mp4.000008.jpg"));
  EXPECT_EQ(database.ReadImages().size(), 8u);
}

}  // namespace
}  // namespace proj
