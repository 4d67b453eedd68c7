#include "sfm/stages/video_frames_stage.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "io/atomic_file.h"
#include "io/file_stamp.h"
#include "io/image_encode.h"
#include "io/image_folder.h"

namespace proj {
namespace fs = std::filesystem;

void VideoOptions::Check() const {
  PROJ_REQUIRE(frames_per_second >= 0, "--video-fps must be >= 0 (0: every frame; got " << frames_per_second << ")");
  PROJ_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "video frame JPEG quality must be in [1, 100]");
}

std::string FramesDirFor(const std::string& database_path) {
  return (fs::path(database_path).parent_path() / "frames").string();
}

namespace {

std::string FrameName(const std::string& video, int index) {
  char digits[16];
  std::snprintf(digits, sizeof(digits), "%06d", index);
  return video + "." + digits + ".jpg";
}

// True for "VIDEO.NNNNNN.jpg" (six or more digits): a frame file of `video`.
bool IsFrameOf(const std::string& video, const std::string& file_name) {
  const std::string prefix = video + ".", suffix = ".jpg";
  if (file_name.size() < prefix.size() + 6 + suffix.size() || file_name.compare(0, prefix.size(), prefix) != 0 ||
      file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  const std::string digits = file_name.substr(prefix.size(), file_name.size() - prefix.size() - suffix.size());
  return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The manifest's first lines: what the frames were made from. Equal text, reusable frames.
std::string SourceHeader(const VideoOptions& options, const FileStamp& stamp) {
  std::ostringstream header;
  header << "# source_size=" << stamp.size << "\n# source_mtime_ns=" << stamp.modification_time_ns
         << "\n# video_fps=" << options.frames_per_second << "\n# jpeg_quality=" << options.jpeg_quality << "\n";
  return header.str();
}

std::string ManifestPath(const std::string& frames_dir, const std::string& video) {
  return (fs::path(frames_dir) / (video + ".frames.csv")).string();
}

void WriteManifest(const std::string& path, const std::string& source_header, const VideoSummary& video,
                   const std::vector<VideoFrameRecord>& frames) {
  WriteFileAtomically(path, [&](std::ostream& out) {
    out << source_header << "# codec=" << video.info.codec << "\n# rotation_deg=" << video.info.rotation_deg
        << "\n# variable_frame_rate=" << (video.info.variable_frame_rate ? 1 : 0)
        << "\n# nominal_fps=" << video.info.nominal_fps << "\n# average_fps=" << video.info.average_fps
        << "\n# duration_s=" << video.info.duration_s << "\n# problem=" << video.problem << "\nname,time_s\n";
    char time[32];
    for (const VideoFrameRecord& frame : frames) {
      std::snprintf(time, sizeof(time), "%.6f", frame.time_s);
      out << frame.name << "," << time << "\n";
    }
  });
}

// The frames of an earlier run of `video` when its manifest was made from the same file with
// the same options and every frame file is there; false otherwise.
bool ReadManifest(const std::string& path, const std::string& source_header, const std::string& frames_dir,
                  VideoSummary* video, std::vector<VideoFrameRecord>* frames) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line, header;
  std::map<std::string, std::string> fields;
  while (std::getline(in, line) && line.rfind("# ", 0) == 0) {
    const size_t equals = line.find('=');
    if (equals == std::string::npos) return false;
    fields[line.substr(2, equals - 2)] = line.substr(equals + 1);
    if (fields.size() <= 4) header += line + "\n";
  }
  if (header != source_header || line != "name,time_s") return false;
  std::vector<VideoFrameRecord> stored;
  while (std::getline(in, line)) {
    const size_t comma = line.rfind(',');
    if (comma == std::string::npos) return false;
    VideoFrameRecord frame{line.substr(0, comma), video->name, std::atof(line.c_str() + comma + 1)};
    if (!IsFrameOf(video->name, frame.name) || !fs::is_regular_file(fs::path(frames_dir) / frame.name)) return false;
    stored.push_back(std::move(frame));
  }
  if (stored.empty()) return false;
  video->info.codec = fields["codec"];
  video->info.rotation_deg = std::atoi(fields["rotation_deg"].c_str());
  video->info.variable_frame_rate = fields["variable_frame_rate"] == "1";
  video->info.nominal_fps = std::atof(fields["nominal_fps"].c_str());
  video->info.average_fps = std::atof(fields["average_fps"].c_str());
  video->info.duration_s = std::atof(fields["duration_s"].c_str());
  video->problem = fields["problem"];
  video->num_frames = static_cast<int>(stored.size());
  video->reused = true;
  *frames = std::move(stored);
  return true;
}

void LogVideo(const VideoSummary& video, double frames_per_second) {
  const VideoInfo& info = video.info;
  std::ostringstream text;
  text << "video '" << video.name << "': " << info.codec << ", " << info.duration_s << " s";
  if (info.nominal_fps > 0) text << " at " << info.nominal_fps << " fps";
  text << "; " << video.num_frames << " frames ";
  if (frames_per_second > 0) {
    text << "picked at " << frames_per_second << " fps";
  } else {
    text << "(every frame)";
  }
  if (video.reused) text << ", reused from an earlier run";
  PROJ_LOG(kInfo, text.str());
  if (info.rotation_deg != 0) {
    PROJ_LOG(kInfo, "video '" << video.name << "': rotation metadata " << info.rotation_deg
                              << " deg clockwise applied (frames are upright)");
  }
  if (info.variable_frame_rate) {
    PROJ_LOG(kInfo, "video '" << video.name << "': variable frame rate (nominal " << info.nominal_fps
                              << " fps, average " << info.average_fps
                              << " fps); frames are picked and timed by their timestamps");
  }
  if (!video.problem.empty()) {
    PROJ_LOG(kWarning, "video '" << video.name << "': decoding stopped after " << video.num_frames
                                 << " frames, the rest is unreadable (truncated or damaged?): " << video.problem);
  }
}

// Decodes `path` and writes its picked frames; removes frames of an earlier run that this
// one does not make.
void DecodeVideo(const VideoOptions& options, const std::string& path, const std::string& frames_dir,
                 const std::string& source_header, VideoSummary* video, std::vector<VideoFrameRecord>* frames) {
  VideoReader reader(path, options.frames_per_second, options.tools);
  video->info = reader.info();
  EnsureWritableDirectory(frames_dir);
  std::set<std::string> written;
  VideoFrame frame;
  Timer since_log;
  while (reader.Next(&frame)) {
    const std::string name = FrameName(video->name, frame.index);
    WriteJpeg((fs::path(frames_dir) / name).string(), frame.image, options.jpeg_quality);
    frames->push_back({name, video->name, frame.time_s});
    written.insert(name);
    if (since_log.ElapsedSeconds() > 5) {
      PROJ_LOG(kInfo, "video '" << video->name << "': " << written.size() << " frames, at " << frame.time_s << " s");
      since_log.Restart();
    }
  }
  video->problem = reader.Problem();
  video->num_frames = static_cast<int>(frames->size());
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(frames_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (IsFrameOf(video->name, name) && !written.count(name)) fs::remove(entry.path(), error);
  }
  WriteManifest(ManifestPath(frames_dir, video->name), source_header, *video, *frames);
}

}  // namespace

InputImages PrepareInputImages(const VideoOptions& options, const std::string& input,
                               const std::string& frames_dir) {
  options.Check();
  InputImages result;
  std::vector<std::string> videos;
  std::error_code error;
  const bool single_file = fs::is_regular_file(input, error);
  if (single_file) {
    PROJ_REQUIRE(HasVideoExtension(input), "'" << input
                                               << "' is not a folder of photos and not a video (.mp4, .mov, "
                                                  ".mkv, ...)");
    videos.push_back(input);
  } else {
    result.paths = ListImageFiles(input);
    videos = ListVideoFiles(input);
  }
  if (videos.empty()) return result;
  result.frames_dir = frames_dir;
  Timer timer;
  for (const std::string& path : videos) {
    VideoSummary video;
    video.name = fs::path(path).filename().string();
    std::vector<VideoFrameRecord> frames;
    try {
      const FileStamp stamp = ReadFileStamp(path);
      const std::string source_header = SourceHeader(options, stamp);
      if (!ReadManifest(ManifestPath(frames_dir, video.name), source_header, frames_dir, &video, &frames)) {
        DecodeVideo(options, path, frames_dir, source_header, &video, &frames);
      }
    } catch (const InputError& failure) {
      if (single_file) throw;
      const FileStamp stamp = fs::exists(path, error) ? ReadFileStamp(path) : FileStamp();
      std::string reason = failure.what();
      const std::string named = "'" + path + "': ";  // the record names the file already
      if (reason.compare(0, named.size(), named) == 0) reason.erase(0, named.size());
      PROJ_LOG(kWarning, "skipping video '" << video.name << "': " << reason);
      result.skipped_videos.push_back({video.name, reason, stamp.size, stamp.modification_time_ns});
      continue;
    }
    LogVideo(video, options.frames_per_second);
    for (VideoFrameRecord& frame : frames) {
      result.paths.push_back((fs::path(frames_dir) / frame.name).string());
      result.frames.push_back(std::move(frame));
    }
    result.videos.push_back(std::move(video));
  }
  result.decode_seconds = timer.ElapsedSeconds();
  // Name order, as a folder lists its photos; a photo named like a frame would be ambiguous.
  std::map<std::string, std::string> by_name;
  for (const std::string& path : result.paths) {
    const std::string name = fs::path(path).filename().string();
    auto [it, inserted] = by_name.emplace(name, path);
    PROJ_REQUIRE(inserted, "'" << it->second << "' and the video frame '" << path << "' have the same name '"
                               << name << "'; rename the photo");
  }
  result.paths.clear();
  for (auto& [name, path] : by_name) result.paths.push_back(std::move(path));
  std::sort(result.frames.begin(), result.frames.end(),
            [](const VideoFrameRecord& a, const VideoFrameRecord& b) { return a.name < b.name; });
  return result;
}

}  // namespace proj
