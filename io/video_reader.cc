#include "io/video_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "core/check.h"
#include "io/file_stamp.h"

namespace proj {
namespace {

constexpr const char* kInstallHint = "install Debian's ffmpeg package (apt-get install ffmpeg)";

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// "30000/1001" or "29.97" -> 29.97; 0 for "0/0" and anything unreadable.
double ParseRate(const std::string& text) {
  const size_t slash = text.find('/');
  const double numerator = std::atof(text.substr(0, slash).c_str());
  if (slash == std::string::npos) return numerator;
  const double denominator = std::atof(text.substr(slash + 1).c_str());
  return denominator > 0 ? numerator / denominator : 0;
}

// An ffmpeg log line without its "[h264 @ 0x55...] [error] " prefixes.
std::string WithoutLogPrefix(std::string line) {
  while (!line.empty() && line[0] == '[' && line.find("] ") != std::string::npos) line.erase(0, line.find("] ") + 2);
  return line;
}

// The last line of a program's log that says something ("" when silent).
std::string LastLine(const std::string& log) {
  std::istringstream lines(log);
  std::string line, last;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = WithoutLogPrefix(line);
  }
  return last;
}

void RequireProgram(const std::string& program, const std::string& path) {
  PROJ_REQUIRE(FindProgram(program),
               Quoted(path) << ": cannot read the video: the program '" << program
                            << "' is not installed; " << kInstallHint);
}

}  // namespace

VideoInfo ProbeVideo(const std::string& path, const VideoToolOptions& tools) {
  const FileStamp stamp = ReadFileStamp(path);
  PROJ_REQUIRE(stamp.size > 0, Quoted(path) << ": empty file (zero bytes), no video in it");
  RequireProgram(tools.ffprobe, path);
  ChildProcess ffprobe({tools.ffprobe, "-v", "error", "-select_streams", "v:0", "-show_entries",
                        "stream=codec_name,codec_tag_string,width,height,r_frame_rate,avg_frame_rate,"
                        "start_time,duration:stream_tags=rotate:stream_side_data=rotation:"
                        "format=start_time,duration",
                        "-of", "flat", "--", path});
  const std::string text = ffprobe.ReadAll();
  const int status = ffprobe.Wait();
  PROJ_REQUIRE(status == 0, Quoted(path) << ": not a readable video (ffprobe: "
                                         << LastLine(ffprobe.ErrorOutput()) << ")");
  std::map<std::string, std::string> fields;  // "streams.stream.0.width" -> "640"
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    std::string value = line.substr(equals + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    fields[line.substr(0, equals)] = value;
  }
  auto field = [&](const std::string& key) {
    auto it = fields.find(key);
    return it == fields.end() || it->second == "N/A" ? std::string() : it->second;
  };
  const std::string stream = "streams.stream.0.";
  PROJ_REQUIRE(fields.count(stream + "width") || fields.count(stream + "codec_name"),
               Quoted(path) << ": holds no video stream");
  VideoInfo info;
  info.codec = field(stream + "codec_name");
  PROJ_REQUIRE(!info.codec.empty() && info.codec != "none" && info.codec != "unknown",
               Quoted(path) << ": unsupported codec: FFmpeg does not know the video stream's codec (tag '"
                            << field(stream + "codec_tag_string") << "')");
  info.coded_width = std::atoi(field(stream + "width").c_str());
  info.coded_height = std::atoi(field(stream + "height").c_str());
  // The display matrix's rotation is counter-clockwise; the older "rotate" tag clockwise.
  const std::string matrix = field(stream + "side_data_list.side_data.0.rotation");
  const std::string tag = field(stream + "tags.rotate");
  const int clockwise = !matrix.empty() ? -std::atoi(matrix.c_str()) : std::atoi(tag.c_str());
  info.rotation_deg = ((clockwise % 360) + 360) % 360;
  std::string start = field(stream + "start_time");
  if (start.empty()) start = field("format.start_time");
  info.start_time_s = std::atof(start.c_str());
  std::string duration = field(stream + "duration");
  if (duration.empty()) duration = field("format.duration");
  info.duration_s = std::max(0.0, std::atof(duration.c_str()));
  info.nominal_fps = ParseRate(field(stream + "r_frame_rate"));
  info.average_fps = ParseRate(field(stream + "avg_frame_rate"));
  info.variable_frame_rate = info.nominal_fps > 0 && info.average_fps > 0 &&
                             std::abs(info.nominal_fps - info.average_fps) > 0.01 * info.nominal_fps;
  return info;
}

VideoReader::VideoReader(const std::string& path, double frames_per_second, const VideoToolOptions& tools)
    : path_(path), frames_per_second_(frames_per_second), info_(ProbeVideo(path, tools)) {
  RequireProgram(tools.ffmpeg, path);
  std::ostringstream filters;
  if (frames_per_second > 0) filters << "fps=" << frames_per_second << ",";
  filters << "showinfo=checksum=0";  // one log line per frame, with its timestamp
  ffmpeg_ = std::make_unique<ChildProcess>(std::vector<std::string>{
      tools.ffmpeg, "-nostdin", "-hide_banner", "-nostats", "-loglevel", "level+info", "-i", path,
      "-map", "0:v:0", "-an", "-sn", "-dn", "-vf", filters.str(), "-fps_mode", "passthrough",
      "-pix_fmt", "rgb24", "-c:v", "ppm", "-f", "image2pipe", "-"});
}

VideoReader::~VideoReader() = default;

void VideoReader::ReadNewLog() {
  partial_log_line_ += ffmpeg_->ErrorOutputSince(&log_offset_);
  size_t start = 0, end = 0;
  while ((end = partial_log_line_.find('\n', start)) != std::string::npos) {
    const std::string line = partial_log_line_.substr(start, end - start);
    start = end + 1;
    const size_t time = line.find(" pts_time:");
    if (line.find("Parsed_showinfo") != std::string::npos && time != std::string::npos &&
        line.find("] n:") != std::string::npos) {
      pending_times_.push_back(std::atof(line.c_str() + time + 10));
    } else if (line.find("Decoder (codec") != std::string::npos && unsupported_codec_.empty()) {
      unsupported_codec_ = WithoutLogPrefix(line);
    } else if ((line.find("[error]") != std::string::npos || line.find("[fatal]") != std::string::npos) &&
               first_error_.empty()) {
      first_error_ = WithoutLogPrefix(line);
    }
  }
  partial_log_line_.erase(0, start);
}

bool VideoReader::ReadPpmHeader(int* width, int* height) {
  // "P6", whitespace, width, whitespace, height, whitespace, "255", one whitespace byte.
  std::string tokens[4];
  int token = 0;
  char c = 0;
  while (token < 4) {
    if (!ffmpeg_->ReadExactly(&c, 1)) return false;
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!tokens[token].empty()) ++token;
    } else {
      tokens[token] += c;
      PROJ_REQUIRE(tokens[token].size() < 16, Quoted(path_) << ": ffmpeg wrote an unexpected frame header");
    }
  }
  *width = std::atoi(tokens[1].c_str());
  *height = std::atoi(tokens[2].c_str());
  PROJ_REQUIRE(tokens[0] == "P6" && tokens[3] == "255" && *width > 0 && *height > 0,
               Quoted(path_) << ": ffmpeg wrote an unexpected frame header");
  return true;
}

std::string VideoReader::Failure() const {
  if (!unsupported_codec_.empty()) {
    return "unsupported codec '" + info_.codec + "': this FFmpeg has no decoder for it (" + unsupported_codec_ + ")";
  }
  if (!first_error_.empty()) return first_error_;
  return LastLine(ffmpeg_->ErrorOutput());
}

bool VideoReader::Next(VideoFrame* frame) {
  if (finished_) return false;
  int width = 0, height = 0;
  const bool header = ReadPpmHeader(&width, &height);
  size_t num_read = 0;
  if (header) {
    frame->image.width = width;
    frame->image.height = height;
    frame->image.channels = 3;
    frame->image.data.resize(static_cast<size_t>(width) * height * 3);
  }
  if (!header || !ffmpeg_->ReadExactly(frame->image.data.data(), frame->image.data.size(), &num_read)) {
    finished_ = true;
    const int status = ffmpeg_->Wait();
    ReadNewLog();
    const bool cut = header && num_read > 0;  // a frame ended halfway: ffmpeg died
    if (status != 0 || cut || !first_error_.empty() || !unsupported_codec_.empty()) {
      std::ostringstream reason;
      reason << Failure();
      if (status != 0) reason << " (ffmpeg exit status " << status << ")";
      problem_ = reason.str();
    }
    PROJ_REQUIRE(num_frames_ > 0 || unsupported_codec_.empty(), Quoted(path_) << ": " << problem_);
    PROJ_REQUIRE(num_frames_ > 0, Quoted(path_) << ": no decodable frames"
                                                << (problem_.empty() ? std::string() : ": " + problem_));
    return false;
  }
  ReadNewLog();
  frame->index = num_frames_++;
  if (first_pending_ < pending_times_.size()) {
    frame->time_s = pending_times_[first_pending_++] - info_.start_time_s;
  } else {  // no log line yet (not seen with FFmpeg 5.1): the nominal time
    frame->time_s = frames_per_second_ > 0 ? frame->index / frames_per_second_
                                           : frame->index / std::max(info_.nominal_fps, 1e-9);
  }
  if (first_pending_ > 1024) {  // keep the list short
    pending_times_.erase(pending_times_.begin(), pending_times_.begin() + static_cast<long>(first_pending_));
    first_pending_ = 0;
  }
  frame->time_s = std::max(0.0, frame->time_s);
  return true;
}

}  // namespace proj
