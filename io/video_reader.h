// Video decoding through the `ffmpeg` and `ffprobe` programs of Debian's ffmpeg package.
//
// Why programs and not libavformat/libavcodec: linking FFmpeg's libraries would add about 170
// Debian packages to every build and install, for a feature photo folders never use; the
// programs are needed only when a video is given, and a missing one is a clear message about
// that video instead of a build or start-up failure. A damaged file that upsets a decoder
// also fails in the child process, never in ours. The cost, a pipe copy of each selected
// frame (the decoding itself is the same code), is small next to feature extraction.
//
// ffprobe reads the metadata; ffmpeg decodes the first video stream, applies its rotation
// metadata (the frames come out upright, as players show them), picks frames by time with
// its fps filter when a rate is given, and writes them as binary PPM (self-describing, so a
// rotated or resized stream needs no guessing) to a pipe read here one frame at a time: memory
// does not grow with the video's length. Each frame's timestamp comes from ffmpeg's showinfo
// filter on the child's standard error, so variable frame rates get true times.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/child_process.h"
#include "io/image.h"

namespace proj {

struct VideoToolOptions {
  std::string ffmpeg = "ffmpeg";    // program names (looked up in $PATH) or paths
  std::string ffprobe = "ffprobe";
};

struct VideoInfo {
  std::string codec;           // ffprobe's codec name ("h264"), or its tag when unknown
  int coded_width = 0;         // pixels, before rotation
  int coded_height = 0;
  int rotation_deg = 0;        // clockwise display rotation from the metadata: 0, 90, 180, 270
  double start_time_s = 0;     // timestamp of the stream's start
  double duration_s = 0;       // 0 when unknown
  double nominal_fps = 0;      // ffprobe's r_frame_rate (0 when unknown)
  double average_fps = 0;      // frames / duration (0 when unknown)
  bool variable_frame_rate = false;  // nominal and average rates differ by more than 1%
};

// The metadata of `path`'s first video stream. Throws InputError naming the file and the
// reason: ffprobe missing, empty file, not a video container, no video stream.
VideoInfo ProbeVideo(const std::string& path, const VideoToolOptions& tools);

struct VideoFrame {
  Image image;        // RGB, upright (rotation metadata applied)
  int index = 0;      // 0, 1, ... in the order read
  double time_s = 0;  // timestamp, seconds from the stream's start
};

// Reads the frames of a video one at a time. Decoding problems after the first frame
// (a truncated file, damaged data) end the stream early and are told by Problem(); a video
// of which not one frame decodes is an InputError.
class VideoReader {
 public:
  // `frames_per_second` > 0: frames picked by time at that rate (ffmpeg's fps filter: the
  // frame nearest each tick); <= 0: every frame. Throws InputError naming the file when
  // ffmpeg is missing or the video cannot be read (see ProbeVideo).
  VideoReader(const std::string& path, double frames_per_second, const VideoToolOptions& tools);
  ~VideoReader();

  const VideoInfo& info() const { return info_; }
  // The next frame; false at the end. Throws InputError when the video ends before its
  // first frame (unsupported codec, no decodable frame), naming the file and the reason.
  bool Next(VideoFrame* frame);
  // After Next returned false: "" for a clean end, else what went wrong (the frames before
  // are good).
  const std::string& Problem() const { return problem_; }

 private:
  bool ReadPpmHeader(int* width, int* height);
  void ReadNewLog();
  std::string Failure() const;

  std::string path_;
  double frames_per_second_ = 0;
  VideoInfo info_;
  std::unique_ptr<ChildProcess> ffmpeg_;
  size_t log_offset_ = 0;
  std::string partial_log_line_;
  std::vector<double> pending_times_;  // showinfo times not yet matched with a frame
  size_t first_pending_ = 0;
  std::string first_error_;            // first error line of ffmpeg's log
  std::string unsupported_codec_;      // set when ffmpeg has no decoder for the stream
  int num_frames_ = 0;
  std::string problem_;
  bool finished_ = false;
};

}  // namespace proj
