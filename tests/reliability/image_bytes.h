// Byte surgery on encoded JPEG and PNG files for the bad-input corpus: find a PNG chunk or
// the start of a JPEG scan, fix a chunk's CRC, patch sizes into headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace proj::testing {

using Bytes = std::vector<uint8_t>;

// Offset of the first PNG chunk of `type` (its length field), or throws std::runtime_error.
size_t FindPngChunk(const Bytes& png, const char type[4]);
// Recomputes the CRC of the chunk at `offset` (as returned by FindPngChunk).
void FixPngCrc(Bytes* png, size_t offset);
// A PNG of signature, IHDR (8-bit RGB, `width` x `height`), a tiny IDAT and IEND, all with
// valid CRCs: a header that claims any size without the pixel data behind it.
Bytes PngHeaderClaiming(uint32_t width, uint32_t height);

// Offset of the first entropy-coded byte (just after the SOS segment) of a baseline JPEG.
size_t JpegScanStart(const Bytes& jpeg);
// `jpeg` with the frame size in its SOF segment replaced (at most 65535 each).
Bytes JpegClaiming(const Bytes& jpeg, uint16_t width, uint16_t height);

Bytes ReadBytes(const std::string& path);

}  // namespace proj::testing
