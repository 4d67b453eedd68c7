#include "tests/reliability/bad_inputs.h"

#include <sys/stat.h>
#include <turbojpeg.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "datasets/synthetic/synthetic_scene.h"
#include "io/image_encode.h"
#include "tests/io/test_images.h"
#include "tests/reliability/exif_bytes.h"
#include "tests/reliability/image_bytes.h"

namespace proj::testing {
namespace {
namespace fs = std::filesystem;

constexpr int kSeedViews = 6;
constexpr int kSeedWidth = 400;
constexpr int kSeedHeight = 300;

SyntheticSceneOptions SeedSceneOptions(uint64_t seed) {
  SyntheticSceneOptions options;
  options.num_images = kSeedViews;
  options.width = kSeedWidth;
  options.height = kSeedHeight;
  options.focal_px = kSeedFocalPx;
  options.ring_arc_deg = 90;
  options.seed = seed;
  return options;
}

// The rendered views of a seed scene, rendered once per process.
const std::vector<Image>& SeedImages(uint64_t seed) {
  static std::map<uint64_t, std::vector<Image>> cache;
  auto it = cache.find(seed);
  if (it == cache.end()) {
    std::vector<Image> images;
    for (SyntheticView& view : RenderSyntheticScene(SeedSceneOptions(seed))) {
      images.push_back(std::move(view.image));
    }
    it = cache.emplace(seed, std::move(images)).first;
  }
  return it->second;
}

Bytes SeedJpeg() { return EncodeJpeg(SeedImages(1)[0]); }
Bytes SeedPng() { return EncodePng(SeedImages(1)[0]); }

std::string Images(const std::string& dir) { return dir + "/images"; }

void AddFile(const std::string& dir, const std::string& name, const Bytes& bytes) {
  fs::create_directories(Images(dir));
  WriteBytesToFile(Images(dir) + "/" + name, bytes);
}

using ImageWriter = std::function<void(const std::string& path, const Image& image)>;

void WriteJpegFile(const std::string& path, const Image& image) {
  WriteBytesToFile(path, EncodeJpeg(image));
}

// `count` views of seed scene `seed` as PREFIX0000.EXT, ... written by `write`.
void WriteScene(const std::string& dir, const ImageWriter& write = WriteJpegFile,
                const std::string& extension = "jpg", uint64_t seed = 1,
                const std::string& prefix = "", int count = kSeedViews) {
  fs::create_directories(Images(dir));
  for (int i = 0; i < count; ++i) {
    const std::string name = SyntheticImageName(i);
    write(Images(dir) + "/" + prefix + name.substr(0, name.size() - 3) + extension,
          SeedImages(seed)[i]);
  }
}

Image Filled(int width, int height, uint8_t value) {
  Image image;
  image.width = width;
  image.height = height;
  image.channels = 3;
  image.data.assign(static_cast<size_t>(width) * height * 3, value);
  return image;
}

// ---------------------------------------------------------------------------------------
// Encoders of the formats the project's encoder does not write.

std::vector<uint8_t> Grey(const Image& image) {
  std::vector<uint8_t> grey(static_cast<size_t>(image.width) * image.height);
  for (size_t i = 0; i < grey.size(); ++i) {
    const uint8_t* p = &image.data[i * 3];
    grey[i] = static_cast<uint8_t>((299 * p[0] + 587 * p[1] + 114 * p[2] + 500) / 1000);
  }
  return grey;
}

ImageWriter SpecialPngWriter(PngKind kind) {
  return [kind](const std::string& path, const Image& image) {
    const std::vector<uint8_t> grey = Grey(image);
    std::vector<uint16_t> samples;
    std::vector<uint8_t> palette;
    for (size_t i = 0; i < grey.size(); ++i) {
      switch (kind) {
        case PngKind::kGrey16: samples.push_back(static_cast<uint16_t>(grey[i] * 257)); break;
        case PngKind::kRgb16:
          for (int c = 0; c < 3; ++c) samples.push_back(static_cast<uint16_t>(image.data[3 * i + c] * 257));
          break;
        case PngKind::kPalette: samples.push_back(grey[i]); break;
        case PngKind::kGreyAlpha: samples.insert(samples.end(), {grey[i], 255}); break;
        case PngKind::kRgbAlpha:
          for (int c = 0; c < 3; ++c) samples.push_back(image.data[3 * i + c]);
          samples.push_back(255);
          break;
      }
    }
    for (int v = 0; v < 256; ++v) palette.insert(palette.end(), 3, static_cast<uint8_t>(v));
    WriteSpecialPng(path, kind, image.width, image.height, samples, palette);
  };
}

void WriteGreyPng(const std::string& path, const Image& image) {
  Image grey;
  grey.width = image.width;
  grey.height = image.height;
  grey.channels = 1;
  grey.data = Grey(image);
  WritePng(path, grey);
}

// CMYK (Adobe, inverted inks: the decoder's RGB is C * K / 255 with K = 255) or progressive.
ImageWriter TurboJpegWriter(bool cmyk, bool progressive) {
  return [cmyk, progressive](const std::string& path, const Image& image) {
    std::vector<uint8_t> pixels = image.data;
    if (cmyk) {
      pixels.clear();
      for (size_t i = 0; i < image.data.size(); i += 3) {
        pixels.insert(pixels.end(), {image.data[i], image.data[i + 1], image.data[i + 2], 255});
      }
    }
    tjhandle handle = tjInitCompress();
    unsigned char* jpeg = nullptr;
    unsigned long size = 0;
    const int flags = progressive ? TJFLAG_PROGRESSIVE : 0;
    const int result = tjCompress2(handle, pixels.data(), image.width, 0, image.height,
                                   cmyk ? TJPF_CMYK : TJPF_RGB, &jpeg, &size, TJSAMP_444, 95, flags);
    tjDestroy(handle);
    if (result != 0) throw std::runtime_error("tjCompress2 failed");
    WriteBytesToFile(path, Bytes(jpeg, jpeg + size));
    tjFree(jpeg);
  };
}

// ---------------------------------------------------------------------------------------
// Case makers.

// The seed scene plus one bad file: the scene is reconstructed, the file named and skipped.
BadInputCase SkippedFileCase(const std::string& name, const std::string& file_name,
                             std::function<Bytes()> bytes, std::vector<std::string> phrases) {
  BadInputCase c;
  c.name = name;
  c.make = [file_name, bytes](const std::string& dir) {
    WriteScene(dir);
    AddFile(dir, file_name, bytes());
  };
  c.exit_code = 0;
  c.phrases = {"skipping '" + file_name + "'"};
  c.phrases.insert(c.phrases.end(), phrases.begin(), phrases.end());
  c.registered_images = kSeedViews;
  c.report_phrases = {file_name};
  return c;
}

// The whole seed scene in another format: it must decode and reconstruct.
BadInputCase FormatCase(const std::string& name, const ImageWriter& write, const std::string& extension) {
  BadInputCase c;
  c.name = name;
  c.make = [write, extension](const std::string& dir) { WriteScene(dir, write, extension); };
  c.registered_images = kSeedViews;
  c.check_focal = true;
  return c;
}

// Every image of the seed scene carries the EXIF block `payload`: advisory metadata, so the
// scene reconstructs and a bad focal length never becomes the prior.
BadInputCase ExifCase(const std::string& name, const Bytes& payload, std::vector<std::string> phrases = {}) {
  BadInputCase c;
  c.name = name;
  c.make = [payload](const std::string& dir) {
    WriteScene(dir, [&payload](const std::string& path, const Image& image) {
      WriteBytesToFile(path, InsertApp1(EncodeJpeg(image), payload));
    });
  };
  c.phrases = std::move(phrases);
  c.registered_images = kSeedViews;
  c.check_focal = true;
  return c;
}

Bytes Truncated(Bytes bytes, size_t size) {
  bytes.resize(size);
  return bytes;
}

// Cut points from the signature to the last byte: 1, 2, 40, 300, 20% .. 80%, size - 2, size - 1.
size_t CutPoint(int index, size_t size) {
  switch (index) {
    case 0: return 1;
    case 1: return 2;
    case 2: return 40;
    case 3: return 300;
    case 8: return size - 2;
    case 9: return size - 1;
    default: return size * static_cast<size_t>(index - 3) / 5;
  }
}

void AddTruncationCases(std::vector<BadInputCase>* cases) {
  // Cut inside the signature (JPEG 2 bytes, PNG 8) the file is no longer recognized.
  const auto reason = [](size_t cut, size_t signature) {
    return std::vector<std::string>{cut < signature ? "not a JPEG or PNG" : "truncated"};
  };
  for (int i = 0; i < 10; ++i) {
    cases->push_back(SkippedFileCase("JpegCut" + std::to_string(i), "cut.jpg",
                                     [i] { const Bytes b = SeedJpeg(); return Truncated(b, CutPoint(i, b.size())); },
                                     reason(CutPoint(i, 1000), 2)));
    cases->push_back(SkippedFileCase("PngCut" + std::to_string(i), "cut.png",
                                     [i] { const Bytes b = SeedPng(); return Truncated(b, CutPoint(i, b.size())); },
                                     reason(CutPoint(i, 1000), 8)));
  }
}

Bytes JpegWithScanBytes(const Bytes& replacement, double position) {
  Bytes jpeg = SeedJpeg();
  const size_t start = JpegScanStart(jpeg);
  const size_t at = start + static_cast<size_t>((jpeg.size() - 2 - start) * position);
  std::copy(replacement.begin(), replacement.end(), jpeg.begin() + at);
  return jpeg;
}

Bytes PngWithIdatDamage(bool fix_crc) {
  Bytes png = SeedPng();
  const size_t idat = FindPngChunk(png, "IDAT");
  for (size_t i = idat + 40; i < idat + 72; ++i) png[i] ^= 0x5A;
  if (fix_crc) FixPngCrc(&png, idat);
  return png;
}

void AddCorruptionCases(std::vector<BadInputCase>* cases) {
  cases->push_back(SkippedFileCase("JpegScanRestartMarker", "rst.jpg",
                                   [] { return JpegWithScanBytes({0xFF, 0xD3, 0xFF, 0xD7}, 0.5); }, {"corrupt JPEG"}));
  cases->push_back(SkippedFileCase("JpegScanGarbage", "garbage.jpg",
                                   [] { return JpegWithScanBytes(Bytes(64, 0xFF), 0.3); }, {}));
  cases->push_back(SkippedFileCase("PngIdatBytes", "idat.png", [] { return PngWithIdatDamage(true); },
                                   {"corrupt PNG"}));
  cases->push_back(SkippedFileCase("PngIdatCrc", "crc.png", [] { return PngWithIdatDamage(false); },
                                   {"corrupt PNG"}));
  cases->push_back(SkippedFileCase("PngIhdrCrc", "ihdr.png", [] {
    Bytes png = SeedPng();
    png[FindPngChunk(png, "IHDR") + 20] ^= 0x01;  // the CRC's first byte
    return png;
  }, {"corrupt PNG"}));
}

Bytes Text(const std::string& text) { return Bytes(text.begin(), text.end()); }

void AddNonImageCases(std::vector<BadInputCase>* cases) {
  const std::string not_image = "not a JPEG or PNG";
  cases->push_back(SkippedFileCase("ZeroByteJpeg", "zero.jpg", [] { return Bytes(); }, {"empty file"}));
  cases->push_back(SkippedFileCase("ZeroBytePng", "zero.png", [] { return Bytes(); }, {"empty file"}));
  cases->push_back(SkippedFileCase("TextAsJpeg", "notes.jpg", [] { return Text("shopping list\n"); }, {not_image}));
  cases->push_back(SkippedFileCase("ZipAsJpeg", "archive.jpg", [] {
    return Bytes{'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  }, {not_image}));
  cases->push_back(SkippedFileCase("ElfAsPng", "program.png", [] {
    Bytes elf = {0x7F, 'E', 'L', 'F', 2, 1, 1, 0};
    elf.resize(512, 0);
    return elf;
  }, {not_image}));
  cases->push_back(SkippedFileCase("GifAsJpeg", "anim.jpg", [] { return Text("GIF89a\x01\x00\x01\x00"); },
                                   {"unsupported image format (GIF)"}));
  cases->push_back(SkippedFileCase("HtmlAsPng", "page.png", [] { return Text("<!DOCTYPE html><html></html>"); },
                                   {not_image}));
}

void AddSizeLimitCases(std::vector<BadInputCase>* cases) {
  const std::vector<std::string> limit = {"image too large", "the limit is 250000000 pixels", "--max-image-pixels"};
  cases->push_back(SkippedFileCase("PngBomb100kx100k", "bomb.png",
                                   [] { return PngHeaderClaiming(100000, 100000); }, limit));
  cases->push_back(SkippedFileCase("JpegBomb65kx65k", "bomb.jpg",
                                   [] { return JpegClaiming(SeedJpeg(), 65000, 65000); }, limit));
  BadInputCase lowered;
  lowered.name = "LimitBelowImageSize";
  lowered.make = [](const std::string& dir) { WriteScene(dir); };
  lowered.extra_args = "--max-image-pixels 100000";
  lowered.exit_code = 2;
  lowered.phrases = {"the limit is 100000 pixels", "at least two"};
  cases->push_back(lowered);
  BadInputCase zero = lowered;
  zero.name = "LimitZero";
  zero.extra_args = "--max-image-pixels 0";
  zero.phrases = {"--max-image-pixels must be at least 1"};
  cases->push_back(zero);
}

void AddFormatCases(std::vector<BadInputCase>* cases) {
  cases->push_back(FormatCase("PngGrey16", SpecialPngWriter(PngKind::kGrey16), "png"));
  cases->push_back(FormatCase("PngRgb16", SpecialPngWriter(PngKind::kRgb16), "png"));
  cases->push_back(FormatCase("PngPalette", SpecialPngWriter(PngKind::kPalette), "png"));
  cases->push_back(FormatCase("PngGreyAlpha", SpecialPngWriter(PngKind::kGreyAlpha), "png"));
  cases->push_back(FormatCase("PngRgbAlpha", SpecialPngWriter(PngKind::kRgbAlpha), "png"));
  cases->push_back(FormatCase("PngGrey8", WriteGreyPng, "png"));
  cases->push_back(FormatCase("JpegCmyk", TurboJpegWriter(true, false), "jpg"));
  cases->push_back(FormatCase("JpegProgressive", TurboJpegWriter(false, true), "jpg"));
  cases->push_back(FormatCase("JpegUpperCaseExtension", WriteJpegFile, "JPEG"));
}

Bytes ExifHeaderThen(const Bytes& tiff) {
  Bytes block = {'E', 'x', 'i', 'f', 0, 0};
  block.insert(block.end(), tiff.begin(), tiff.end());
  return block;
}

void AddExifCases(std::vector<BadInputCase>* cases) {
  constexpr uint16_t kFocal = 0x920A, kFocal35 = 0xA405, kPlaneX = 0xA20E, kPlaneUnit = 0xA210;
  const std::string ignored = "EXIF focal length";
  cases->push_back(ExifCase("ExifIfdPointsToItself", ExifBlock({ShortEntry(0x0112, 1)}, {}, 0, 8)));
  cases->push_back(ExifCase("ExifSubIfdPointsToIfd0", ExifBlock({ShortEntry(0x0112, 1),
                                                                 TiffEntry{0x8769, kTiffLong, 1, {8, 0, 0, 0}}})));
  cases->push_back(ExifCase("ExifEntryCountPastEnd", ExifHeaderThen({'I', 'I', 42, 0, 8, 0, 0, 0, 0xFF, 0xFF, 1, 2})));
  cases->push_back(ExifCase("ExifFirstIfdPastEnd", ExifHeaderThen({'M', 'M', 0, 42, 0xFF, 0xFF, 0xFF, 0xF0})));
  Bytes garbage = {'I', 'I', 42, 0, 8, 0, 0, 0};
  for (uint32_t state = 12345, i = 0; i < 300; ++i) {
    state = state * 1103515245u + 12345u;
    garbage.push_back(static_cast<uint8_t>(state >> 16));
  }
  cases->push_back(ExifCase("ExifRandomBytes", ExifHeaderThen(garbage)));
  cases->push_back(ExifCase("ExifOrientation99", ExifBlock({ShortEntry(0x0112, 99)})));
  cases->push_back(ExifCase("ExifFocalZero", ExifBlock({}, {RationalEntry(kFocal, 0, 1), ShortEntry(kFocal35, 0)}),
                            {ignored}));
  cases->push_back(ExifCase("ExifFocalNegative",
                            ExifBlock({}, {SRationalEntry(kFocal, -35, 1), RationalEntry(kPlaneX, 1000, 1),
                                           ShortEntry(kPlaneUnit, 3)}),
                            {ignored}));
  cases->push_back(ExifCase("ExifFocal1e9",
                            ExifBlock({}, {RationalEntry(kFocal, 1000000000, 1), RationalEntry(kPlaneX, 1000, 1),
                                           ShortEntry(kPlaneUnit, 3)}),
                            {ignored}));
  cases->push_back(ExifCase("ExifFocal35mm65535", ExifBlock({}, {ShortEntry(kFocal35, 65535)}), {ignored}));
  cases->push_back(ExifCase("ExifFocalZeroDenominator", ExifBlock({}, {RationalEntry(kFocal, 35, 0),
                                                                      RationalEntry(kPlaneX, 1000, 1)})));
  cases->push_back(ExifCase("ExifGpsLatitude400",
                            ExifBlock({}, {AsciiEntry(1, "N"), DegreesEntry(2, 400), AsciiEntry(3, "E"),
                                           DegreesEntry(4, 10)}, 0x8825)));
}

// The seed scene plus an image without features: named, and unregistered in the report.
BadInputCase NoFeaturesCase(const std::string& name, const std::string& file_name, const Bytes& bytes) {
  BadInputCase c = SkippedFileCase(name, file_name, [bytes] { return bytes; }, {});
  c.phrases = {"'" + file_name + "': no features found"};
  return c;
}

// Views of a wide image turned about the camera centre (yaw), by warping with K R K^-1.
std::vector<Image> RotationViews(int count, double step_deg) {
  SyntheticSceneOptions options = SeedSceneOptions(3);
  options.num_images = 1;
  options.width = 3 * kSeedWidth;
  options.height = 2 * kSeedHeight;
  const Image wide = RenderSyntheticScene(options)[0].image;
  std::vector<Image> views;
  for (int k = 0; k < count; ++k) {
    const double yaw = (k - (count - 1) / 2.0) * step_deg * M_PI / 180;
    Image view = Filled(kSeedWidth, kSeedHeight, 0);
    for (int y = 0; y < kSeedHeight; ++y) {
      for (int x = 0; x < kSeedWidth; ++x) {
        const double rx = (x + 0.5 - kSeedWidth / 2.0) / kSeedFocalPx, ry = (y + 0.5 - kSeedHeight / 2.0) / kSeedFocalPx;
        const double wx = std::cos(yaw) * rx + std::sin(yaw), wz = -std::sin(yaw) * rx + std::cos(yaw);
        const int u = static_cast<int>(kSeedFocalPx * wx / wz + wide.width / 2.0);
        const int v = static_cast<int>(kSeedFocalPx * ry / wz + wide.height / 2.0);
        if (wz <= 0 || u < 0 || v < 0 || u >= wide.width || v >= wide.height) continue;
        std::copy(wide.pixel(u, v), wide.pixel(u, v) + 3, &view.data[3 * (static_cast<size_t>(y) * kSeedWidth + x)]);
      }
    }
    views.push_back(std::move(view));
  }
  return views;
}

void AddContentCases(std::vector<BadInputCase>* cases) {
  cases->push_back(NoFeaturesCase("OnePixelImage", "dot.png", EncodePng(Filled(1, 1, 128))));
  cases->push_back(NoFeaturesCase("AllBlackImage", "black.png", EncodePng(Filled(kSeedWidth, kSeedHeight, 0))));
  cases->push_back(NoFeaturesCase("AllWhiteImage", "white.jpg", EncodeJpeg(Filled(kSeedWidth, kSeedHeight, 255))));
  BadInputCase blank;
  blank.name = "OnlyBlankImages";
  blank.make = [](const std::string& dir) {
    AddFile(dir, "a.png", EncodePng(Filled(kSeedWidth, kSeedHeight, 0)));
    AddFile(dir, "b.png", EncodePng(Filled(kSeedWidth, kSeedHeight, 255)));
  };
  blank.exit_code = 1;
  cases->push_back(blank);
  BadInputCase duplicate;
  duplicate.name = "DuplicateFile";
  duplicate.make = [](const std::string& dir) {
    WriteScene(dir);
    fs::copy_file(Images(dir) + "/0002.jpg", Images(dir) + "/copy_of_0002.jpg");
  };
  cases->push_back(duplicate);
  BadInputCase two;
  two.name = "TwoDisconnectedScenes";
  two.make = [](const std::string& dir) {
    WriteScene(dir, WriteJpegFile, "jpg", 1, "a_");
    WriteScene(dir, WriteJpegFile, "jpg", 2, "b_", 4);
  };
  two.registered_images = kSeedViews;
  two.report_phrases = {"b_0000.jpg", "b_0003.jpg"};
  cases->push_back(two);
  BadInputCase rotation;
  rotation.name = "PureRotation";
  rotation.make = [](const std::string& dir) {
    // The camera turns about its centre: no parallax, nothing to triangulate. The focal
    // prior (1.2 x 400 px) is 45% off the true 330 px, so only a focal-independent test of
    // the homography finds the pairs panoramic (geometry/solvers/rotation_homography.h).
    fs::create_directories(Images(dir));
    const std::vector<Image> views = RotationViews(5, 8);
    for (size_t k = 0; k < views.size(); ++k) WriteJpeg(Images(dir) + "/" + SyntheticImageName(k), views[k]);
  };
  rotation.exit_code = 1;
  cases->push_back(rotation);
}

void AddFileSystemCases(std::vector<BadInputCase>* cases) {
  BadInputCase loop;
  loop.name = "SymlinkLoop";
  loop.make = [](const std::string& dir) {
    WriteScene(dir);
    fs::create_symlink("loop.jpg", Images(dir) + "/loop.jpg");
    fs::create_directory_symlink(".", Images(dir) + "/folder.jpg");
  };
  loop.phrases = {"loop.jpg"};
  loop.registered_images = kSeedViews;
  cases->push_back(loop);
  BadInputCase dangling = loop;
  dangling.name = "DanglingSymlink";
  dangling.make = [](const std::string& dir) {
    WriteScene(dir);
    fs::create_symlink("nowhere.jpg", Images(dir) + "/gone.jpg");
  };
  dangling.phrases = {"gone.jpg"};
  cases->push_back(dangling);
  BadInputCase locked = SkippedFileCase("UnreadableFile", "locked.jpg", [] { return SeedJpeg(); },
                                        {"Permission denied"});
  const auto make_locked = locked.make;
  locked.make = [make_locked](const std::string& dir) {
    make_locked(dir);
    ::chmod((Images(dir) + "/locked.jpg").c_str(), 0);
  };
  locked.needs_unprivileged = true;
  cases->push_back(locked);
  BadInputCase not_folder;
  not_folder.name = "ImagesIsAFile";
  not_folder.make = [](const std::string& dir) { WriteBytesToFile(Images(dir), SeedJpeg()); };
  not_folder.exit_code = 2;
  not_folder.phrases = {"is not a folder"};
  cases->push_back(not_folder);
  BadInputCase empty;
  empty.name = "EmptyFolder";
  empty.make = [](const std::string& dir) { fs::create_directories(Images(dir)); };
  empty.exit_code = 2;
  empty.phrases = {"holds no image file"};
  cases->push_back(empty);
  BadInputCase below_file;
  below_file.name = "OutputBelowRegularFile";
  below_file.make = [](const std::string& dir) {
    WriteScene(dir);
    WriteBytesToFile(dir + "/blocker", Text("a file, not a folder"));
  };
  below_file.output = OutputPlace::kBelowRegularFile;
  below_file.exit_code = 2;
  below_file.phrases = {"blocker/out"};
  cases->push_back(below_file);
  BadInputCase full = below_file;
  full.name = "OutputDiskFull";
  full.make = [](const std::string& dir) { WriteScene(dir); };
  full.output = OutputPlace::kFullDisk;
  full.phrases = {"the disk is full"};
  cases->push_back(full);
  BadInputCase outputs_full = full;  // the database fits elsewhere; the outputs do not
  outputs_full.name = "OutputsOnFullDisk";
  outputs_full.extra_args = "--database {case}/scene.db";
  outputs_full.phrases = {"No space left on device"};
  cases->push_back(outputs_full);
}

}  // namespace

const std::vector<BadInputCase>& BadInputCases() {
  static const std::vector<BadInputCase> cases = [] {
    std::vector<BadInputCase> all;
    AddTruncationCases(&all);
    AddCorruptionCases(&all);
    AddNonImageCases(&all);
    AddSizeLimitCases(&all);
    AddFormatCases(&all);
    AddExifCases(&all);
    AddContentCases(&all);
    AddFileSystemCases(&all);
    return all;
  }();
  return cases;
}

}  // namespace proj::testing
