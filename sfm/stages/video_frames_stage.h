// Stage 0 of the pipeline for videos: the input (one video file, or a folder of photos and
// videos) becomes a list of image files. Each video's frames are decoded one at a time
// through ffmpeg (io/video_reader.h), picked by time at --video-fps, and only the picked
// frames are written, as JPEGs into FRAMES_DIR (the `frames` folder beside the scene
// database), so the stages after work on them as on photos: resume, growing folders, point
// colours. Memory does not grow with the video's length.
//
// Frame files are named VIDEO.NNNNNN.jpg (NNNNNN = index among the picked frames, from 0):
// "ride.mp4.000012.jpg". FRAMES_DIR/VIDEO.frames.csv lists each frame's name and time
// (seconds from the video's start) below a header recording the video's size and
// modification time and the options: a re-run with the same video and options reuses the
// frames without decoding; otherwise the video is decoded again and frames left from an
// earlier run of it are removed.
#pragma once

#include <string>
#include <vector>

#include "io/video_reader.h"
#include "sfm/database/scene_database.h"

namespace proj {

struct VideoOptions {
  double frames_per_second = 2;  // frames picked per second of video; <= 0: every frame
  int jpeg_quality = 95;         // of the written frames (4:4:4 chroma at >= 90)
  VideoToolOptions tools;        // the ffmpeg and ffprobe programs
  void Check() const;
};

// One picked frame.
struct VideoFrameRecord {
  std::string name;   // image name: "ride.mp4.000012.jpg"
  std::string video;  // video file name: "ride.mp4"
  double time_s = 0;  // seconds from the video's start
};

struct VideoSummary {
  std::string name;  // video file name
  VideoInfo info;
  int num_frames = 0;    // frames picked
  bool reused = false;   // frames of an earlier run, not decoded again
  std::string problem;   // decoding ended early (truncated, damaged): why; "" when clean
};

struct InputImages {
  std::vector<std::string> paths;  // photos and picked frames, in name order
  std::string frames_dir;          // "" when the input holds no video
  std::vector<VideoSummary> videos;
  std::vector<VideoFrameRecord> frames;    // in name order
  std::vector<SkippedFile> skipped_videos; // videos of a folder that gave no frame, with why
  double decode_seconds = 0;
};

// `input`: a folder (its photos and videos, not sub-folders) or one video file. Throws
// InputError when `input` is missing, is a file that is no video, is a video that gives no
// frame (the reason named: ffmpeg missing, empty, truncated before the first frame,
// unsupported codec, no video stream, ...), or when a photo's name is also a frame's. A
// video in a folder that gives no frame is skipped with its reason instead.
InputImages PrepareInputImages(const VideoOptions& options, const std::string& input,
                               const std::string& frames_dir);

// FRAMES_DIR for the scene database at `database_path`: its folder's "frames".
std::string FramesDirFor(const std::string& database_path);

}  // namespace proj
