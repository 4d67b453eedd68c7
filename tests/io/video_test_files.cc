#include "tests/io/video_test_files.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/child_process.h"
#include "tests/support/test_data.h"

namespace proj::testing {

bool HaveFfmpeg() { return FindProgram("ffmpeg") && FindProgram("ffprobe"); }

void RunFfmpeg(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {"ffmpeg", "-nostdin", "-v", "error", "-y"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  ChildProcess ffmpeg(argv);
  ffmpeg.ReadAll();
  if (ffmpeg.Wait() != 0) throw std::runtime_error("ffmpeg failed: " + ffmpeg.ErrorOutput());
}

void WriteTestPatternVideo(const std::string& path, double seconds, int fps, const std::vector<std::string>& extra) {
  std::vector<std::string> arguments = {"-f", "lavfi", "-i", "testsrc=size=160x120:rate=" + std::to_string(fps),
                                        "-t", std::to_string(seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p"};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  arguments.push_back(path);
  RunFfmpeg(arguments);
}

void EncodeImageSequence(const std::string& images_dir, int fps, const std::string& path) {
  RunFfmpeg({"-framerate", std::to_string(fps), "-i", images_dir + "/%04d.jpg", "-c:v", "libx264", "-crf", "12",
             "-pix_fmt", "yuv420p", path});
}

namespace {

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace

void WriteTruncatedCopy(const std::string& source, double fraction, const std::string& path) {
  const std::string bytes = ReadTextFile(source);
  WriteBytes(path, bytes.substr(0, static_cast<size_t>(bytes.size() * fraction)));
}

void WriteZeroedMediaCopy(const std::string& source, const std::string& path) {
  std::string bytes = ReadTextFile(source);
  const size_t type = bytes.find("mdat");
  if (type == std::string::npos || type < 4) throw std::runtime_error(source + " has no mdat box");
  size_t size = 0;
  for (size_t i = type - 4; i < type; ++i) size = size * 256 + static_cast<unsigned char>(bytes[i]);
  for (size_t i = type + 4; i < type - 4 + size && i < bytes.size(); ++i) bytes[i] = 0;
  WriteBytes(path, bytes);
}

void WriteReplacedBytesCopy(const std::string& source, const std::string& from, const std::string& to,
                            const std::string& path) {
  std::string bytes = ReadTextFile(source);
  for (size_t at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + to.size())) {
    bytes.replace(at, from.size(), to);
  }
  WriteBytes(path, bytes);
}

}  // namespace proj::testing
