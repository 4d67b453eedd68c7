// io/video_reader.h on videos made by ffmpeg at test time: frames and their times, frame
// picking by rate, variable frame rates, rotation metadata, and every kind of bad video
// reported with the file's name and the reason (never a crash). Skipped without ffmpeg.
#include "io/video_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "core/check.h"
#include "tests/io/video_test_files.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

std::vector<VideoFrame> ReadAll(const std::string& path, double fps, std::string* problem = nullptr) {
  VideoReader reader(path, fps, VideoToolOptions());
  std::vector<VideoFrame> frames;
  VideoFrame frame;
  while (reader.Next(&frame)) frames.push_back(frame);
  if (problem != nullptr) *problem = reader.Problem();
  return frames;
}

// The InputError's message of reading `path` whole ("" when there is none).
std::string ReadError(const std::string& path, const VideoToolOptions& tools = VideoToolOptions()) {
  try {
    VideoReader reader(path, 0, tools);
    VideoFrame frame;
    while (reader.Next(&frame)) {
    }
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(VideoReader, EveryFrameWithItsTime) {
  PROJ_REQUIRE_FFMPEG();
  const std::string path = testing::MakeTempDir("video_every_frame") + "/pattern.mp4";
  testing::WriteTestPatternVideo(path, 2, 10);
  const VideoInfo info = ProbeVideo(path, VideoToolOptions());
  EXPECT_EQ(info.codec, "h264");
  EXPECT_NEAR(info.nominal_fps, 10, 1e-9);
  EXPECT_FALSE(info.variable_frame_rate);
  EXPECT_EQ(info.rotation_deg, 0);
  std::string problem;
  const std::vector<VideoFrame> frames = ReadAll(path, 0, &problem);
  EXPECT_EQ(problem, "");
  ASSERT_EQ(frames.size(), 20u);
  for (size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i].index, static_cast<int>(i));
    EXPECT_NEAR(frames[i].time_s, 0.1 * i, 1e-4);
    EXPECT_EQ(frames[i].image.width, 160);
    EXPECT_EQ(frames[i].image.height, 120);
    EXPECT_EQ(frames[i].image.channels, 3);
  }
  EXPECT_NE(frames[0].image.data, frames[1].image.data);  // the pattern moves
}

TEST(VideoReader, FramesPickedByRate) {
  PROJ_REQUIRE_FFMPEG();
  const std::string path = testing::MakeTempDir("video_picked") + "/pattern.mp4";
  testing::WriteTestPatternVideo(path, 3, 30);
  const std::vector<VideoFrame> frames = ReadAll(path, 4);
  ASSERT_EQ(frames.size(), 12u);
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_NEAR(frames[i].time_s, 0.25 * i, 1e-4);
  // Frame k at 4 fps is frame 7.5 k at 30 fps: the pictures at 0 s and 0.25 s differ.
  EXPECT_NE(frames[0].image.data, frames[1].image.data);
}

TEST(VideoReader, VariableFrameRateTimedByTimestamps) {
  PROJ_REQUIRE_FFMPEG();
  const std::string path = testing::MakeTempDir("video_vfr") + "/vfr.mp4";
  // 10 frames 0.1 s apart, then 30 frames 1/30 s apart.
  testing::RunFfmpeg({"-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2", "-vf",
                      "setpts='if(lt(N,10),N/10,1+(N-10)/30)/TB'", "-fps_mode", "vfr", "-c:v", "libx264",
                      "-pix_fmt", "yuv420p", path});
  EXPECT_TRUE(ProbeVideo(path, VideoToolOptions()).variable_frame_rate);
  const std::vector<VideoFrame> frames = ReadAll(path, 0);
  ASSERT_EQ(frames.size(), 40u);
  EXPECT_NEAR(frames[5].time_s, 0.5, 1e-4);
  EXPECT_NEAR(frames[25].time_s, 1.5, 1e-4);
  // Picked by time: 4 per second whatever the spacing of the frames.
  const std::vector<VideoFrame> picked = ReadAll(path, 4);
  ASSERT_EQ(picked.size(), 8u);
  EXPECT_NEAR(picked[6].time_s, 1.5, 1e-4);
}

TEST(VideoReader, RotationMetadataApplied) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("video_rotation");
  testing::WriteTestPatternVideo(dir + "/upright.mp4", 1, 10);
  testing::RunFfmpeg({"-i", dir + "/upright.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", dir + "/rotated.mp4"});
  const VideoInfo info = ProbeVideo(dir + "/rotated.mp4", VideoToolOptions());
  EXPECT_TRUE(info.rotation_deg == 90 || info.rotation_deg == 270) << info.rotation_deg;
  EXPECT_EQ(info.coded_width, 160);
  const std::vector<VideoFrame> frames = ReadAll(dir + "/rotated.mp4", 0);
  ASSERT_EQ(frames.size(), 10u);
  EXPECT_EQ(frames[0].image.width, 120);  // turned upright
  EXPECT_EQ(frames[0].image.height, 160);
}

TEST(VideoReader, TruncatedVideoKeepsTheFramesBeforeTheCut) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("video_truncated");
  // Index first (faststart): the frames before the cut decode.
  testing::WriteTestPatternVideo(dir + "/whole.mp4", 3, 10, {"-movflags", "+faststart"});
  testing::WriteTruncatedCopy(dir + "/whole.mp4", 0.6, dir + "/cut.mp4");
  std::string problem;
  const std::vector<VideoFrame> frames = ReadAll(dir + "/cut.mp4", 0, &problem);
  EXPECT_GT(frames.size(), 0u);
  EXPECT_LT(frames.size(), 30u);
  EXPECT_NE(problem, "");
  // Index last (ffmpeg's default for MP4): the cut takes the index, nothing can be read.
  testing::WriteTestPatternVideo(dir + "/index_last.mp4", 3, 10);
  testing::WriteTruncatedCopy(dir + "/index_last.mp4", 0.6, dir + "/cut_index.mp4");
  const std::string error = ReadError(dir + "/cut_index.mp4");
  EXPECT_THAT(error, HasSubstr("cut_index.mp4"));
  EXPECT_THAT(error, HasSubstr("not a readable video"));
}

TEST(VideoReader, UnsupportedCodecNamed) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("video_codec");
  testing::RunFfmpeg({"-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", "-c:v", "mpeg4", "-vtag",
                      "XVID", dir + "/xvid.avi"});
  testing::WriteReplacedBytesCopy(dir + "/xvid.avi", "XVID", "QQQQ", dir + "/unknown.avi");
  testing::WriteReplacedBytesCopy(dir + "/unknown.avi", "FMP4", "QQQQ", dir + "/unknown.avi");
  const std::string error = ReadError(dir + "/unknown.avi");
  EXPECT_THAT(error, HasSubstr("unknown.avi"));
  EXPECT_THAT(error, HasSubstr("unsupported codec"));
  EXPECT_THAT(error, HasSubstr("QQQQ"));
}

TEST(VideoReader, EmptyAndFramelessVideosNamed) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("video_empty");
  std::ofstream(dir + "/empty.mp4").close();
  EXPECT_THAT(ReadError(dir + "/empty.mp4"), HasSubstr("'" + dir + "/empty.mp4': empty file"));
  // A container with a video track of zero frames, and one with sound only.
  testing::RunFfmpeg({"-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-frames:v", "0", "-c:v", "libx264",
                      dir + "/zero_frames.mp4"});
  EXPECT_THAT(ReadError(dir + "/zero_frames.mp4"), HasSubstr("zero_frames.mp4': holds no video stream"));
  testing::RunFfmpeg({"-f", "lavfi", "-i", "anullsrc", "-t", "1", dir + "/sound.mp4"});
  EXPECT_THAT(ReadError(dir + "/sound.mp4"), HasSubstr("sound.mp4': holds no video stream"));
  std::ofstream(dir + "/text.mp4") << "not a video at all\n";
  EXPECT_THAT(ReadError(dir + "/text.mp4"), HasSubstr("text.mp4': not a readable video"));
}

TEST(VideoReader, NoDecodableFrameNamed) {
  PROJ_REQUIRE_FFMPEG();
  const std::string dir = testing::MakeTempDir("video_undecodable");
  testing::WriteTestPatternVideo(dir + "/whole.mp4", 2, 10, {"-movflags", "+faststart"});
  testing::WriteZeroedMediaCopy(dir + "/whole.mp4", dir + "/zeroed.mp4");
  const std::string error = ReadError(dir + "/zeroed.mp4");
  EXPECT_THAT(error, HasSubstr("zeroed.mp4': no decodable frames"));
}

TEST(VideoReader, MissingFfmpegNamedWithTheVideo) {
  PROJ_REQUIRE_FFMPEG();
  const std::string path = testing::MakeTempDir("video_no_ffmpeg") + "/pattern.mp4";
  testing::WriteTestPatternVideo(path, 1, 10);
  VideoToolOptions tools;
  tools.ffmpeg = "sfm-test-no-such-ffmpeg";
  EXPECT_THAT(ReadError(path, tools), HasSubstr("pattern.mp4': cannot read the video: the program "
                                                "'sfm-test-no-such-ffmpeg' is not installed"));
  tools = VideoToolOptions();
  tools.ffprobe = "/nonexistent/ffprobe";
  EXPECT_THAT(ReadError(path, tools), HasSubstr("is not installed"));
}

}  // namespace
}  // namespace proj
