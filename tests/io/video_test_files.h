// Videos made at test time with the ffmpeg program (scripts/install_test_tools.sh installs
// it): good ones from ffmpeg's test pattern or an image sequence, and damaged ones. Used by
// the io video tests and the integration tests.
#pragma once

#include <string>
#include <vector>

namespace proj::testing {

// True when the ffmpeg and ffprobe programs are installed.
bool HaveFfmpeg();

// Runs `ffmpeg -nostdin -v error -y ARGUMENTS`; throws std::runtime_error with its log when
// it fails.
void RunFfmpeg(const std::vector<std::string>& arguments);

// ffmpeg's moving test pattern, 160x120, H.264, `seconds` long at `fps`; `extra` is added
// before the output name (e.g. {"-movflags", "+faststart"}).
void WriteTestPatternVideo(const std::string& path, double seconds, int fps,
                           const std::vector<std::string>& extra = {});

// IMAGES_DIR/0000.jpg, 0001.jpg, ... (the synthetic scenes' names) as an H.264 MP4 at `fps`,
// near-lossless (crf 12).
void EncodeImageSequence(const std::string& images_dir, int fps, const std::string& path);

// A copy of `source` with only its first `fraction` of bytes.
void WriteTruncatedCopy(const std::string& source, double fraction, const std::string& path);

// A copy of MP4 `source` whose media data (the mdat box's payload) is all zeros: the
// container reads, no frame decodes.
void WriteZeroedMediaCopy(const std::string& source, const std::string& path);

// A copy of `source` with every occurrence of the 4-byte `from` replaced by `to` (an AVI's
// codec tag, to make a codec nobody knows).
void WriteReplacedBytesCopy(const std::string& source, const std::string& from, const std::string& to,
                            const std::string& path);

}  // namespace proj::testing

// Skips the current test with a message when ffmpeg is missing.
#define PROJ_REQUIRE_FFMPEG()                                                                  \
  if (!::proj::testing::HaveFfmpeg()) {                                                        \
    GTEST_SKIP() << "the ffmpeg and ffprobe programs are not installed "                       \
                    "(scripts/install_test_tools.sh installs them)";                           \
  }
