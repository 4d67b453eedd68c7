// Image file encoding: JPEG through TurboJPEG, PNG through libpng. The Write* functions
// write atomically (WriteFileAtomically): a failed write never leaves a partial file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/image.h"

namespace proj {

// `quality` in [1, 100]. Chroma is kept at full resolution (4:4:4) for quality >= 90 and
// subsampled 4:2:0 below; grey images are written as greyscale JPEGs.
std::vector<uint8_t> EncodeJpeg(const Image& image, int quality = 95);
// Lossless 8-bit grey or RGB PNG.
std::vector<uint8_t> EncodePng(const Image& image);

// Throw InputError naming `path` if the image is empty/malformed or the file cannot be
// written.
void WriteJpeg(const std::string& path, const Image& image, int quality = 95);
void WritePng(const std::string& path, const Image& image);

}  // namespace proj
