// Issue 4, experiment 2: matching under perturbation, Gaussian SIFT against trilateral SIFT.
// For each real photo and crop size S, crops A = photo[x0 .. x0+S, y0 .. y0+S] at several
// positions are matched against B = the crop at (x0 + dx, y0 + dy), perturbed. A point p of
// A lies at p - (dx, dy) in B, so a match is correct when its B keypoint is within
// --tolerance (4) pixels of that position. Perturbations of B: none, Gaussian noise
// (sigma --noise on [0, 1] grey, fixed seed), contrast change (B' = 0.25 + 0.5 B), and JPEG
// compression (quality --jpeg-quality, grey). Matching: the project's descriptor matcher
// (RootSIFT, ratio 0.8, cross-check). Reported, summed over the crops: keypoints of A and B,
// all matches, correct matches, precision = correct / all.
//
//   trilateral_matching_bench --image a.jpg --image b.jpg [--sizes 100,640] [--crops 4]
//                             [--device cpu|gpu] [--out FILE]
//
// Photos are first reduced (area) to at most --max-side (2000) pixels on the longer side.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/timer.h"
#include "features/feature_extractor.h"
#include "features/image_preprocessing.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "matching/descriptor_matcher.h"

namespace proj {
namespace {

GrayImage Crop(const GrayImage& image, int x0, int y0, int size) {
  GrayImage crop;
  crop.width = size;
  crop.height = size;
  crop.pixels.resize(static_cast<size_t>(size) * size);
  for (int y = 0; y < size; ++y) {
    std::copy_n(&image.pixels[static_cast<size_t>(y0 + y) * image.width + x0], size,
                &crop.pixels[static_cast<size_t>(y) * size]);
  }
  return crop;
}

Image ToBytes(const GrayImage& image) {
  Image bytes;
  bytes.width = image.width;
  bytes.height = image.height;
  bytes.channels = 1;
  bytes.data.resize(image.pixels.size());
  for (size_t i = 0; i < image.pixels.size(); ++i) {
    bytes.data[i] = static_cast<uint8_t>(std::lround(std::clamp(image.pixels[i], 0.f, 1.f) * 255.f));
  }
  return bytes;
}

enum class Perturbation { kNone, kNoise, kContrast, kJpeg };
const char* Name(Perturbation p) {
  switch (p) {
    case Perturbation::kNone: return "unmodified";
    case Perturbation::kNoise: return "Gaussian noise";
    case Perturbation::kContrast: return "contrast";
    case Perturbation::kJpeg: return "JPEG";
  }
  return "?";
}

GrayImage Perturb(const GrayImage& image, Perturbation kind, double noise_sigma, int quality,
                  uint64_t seed) {
  GrayImage out = image;
  switch (kind) {
    case Perturbation::kNone:
      break;
    case Perturbation::kNoise: {
      std::mt19937_64 rng(seed);
      std::normal_distribution<float> noise(0.f, static_cast<float>(noise_sigma));
      for (float& v : out.pixels) v = std::clamp(v + noise(rng), 0.f, 1.f);
      break;
    }
    case Perturbation::kContrast:
      for (float& v : out.pixels) v = 0.25f + 0.5f * v;
      break;
    case Perturbation::kJpeg: {
      const std::vector<uint8_t> jpeg = EncodeJpeg(ToBytes(image), quality);
      out = ToGrayImage(DecodeImage(jpeg.data(), jpeg.size(), "perturbed crop"));
      break;
    }
  }
  return out;
}

struct Counts {
  long keypoints_a = 0, keypoints_b = 0, matches = 0, correct = 0;
  double seconds = 0;
  int extractions = 0;
};

struct Variant {
  const char* name;
  ScaleSpaceType space;
  bool edge_test;
};

int Main(int argc, char** argv) {
  CLI::App app("Trilateral SIFT vs Gaussian SIFT: matching under perturbation (issue 4, exp. 2)");
  std::vector<std::string> images;
  std::vector<int> sizes = {100, 640};
  int crops = 4, max_side = 2000, jpeg_quality = 40, dx = 7, dy = 5;
  double noise = 0.03, tolerance = 4.0;
  std::string device_name = "gpu", out_path;
  app.add_option("--image", images, "real photos to crop (JPEG/PNG)")->required();
  app.add_option("--sizes", sizes, "crop sizes (square), pixels");
  app.add_option("--crops", crops, "crop positions per photo and size");
  app.add_option("--max-side", max_side, "photos reduced to this longer side first");
  app.add_option("--noise", noise, "Gaussian noise sigma on [0, 1] grey");
  app.add_option("--jpeg-quality", jpeg_quality, "JPEG quality of the compressed copy");
  app.add_option("--dx", dx, "shift of the copy, x");
  app.add_option("--dy", dy, "shift of the copy, y");
  app.add_option("--tolerance", tolerance, "a match is correct within this many pixels");
  app.add_option("--device", device_name, "cpu or gpu (SIFT extraction and matching)")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.add_option("--out", out_path, "markdown output file");
  if (const auto exit_code = ParseBenchArguments(app, argc, argv)) return *exit_code;
  const ComputeDevice device = device_name == "gpu" ? ComputeDevice::kGpu : ComputeDevice::kCpu;

  std::vector<GrayImage> photos;
  for (const std::string& path : images) {
    double scale = 1;
    photos.push_back(LimitImageSize(ToGrayImage(ReadImageFile(path)), max_side, &scale));
  }
  const Variant variants[] = {{"gaussian", ScaleSpaceType::kGaussian, true},
                              {"gaussian", ScaleSpaceType::kGaussian, false},
                              {"trilateral", ScaleSpaceType::kTrilateral, true},
                              {"trilateral", ScaleSpaceType::kTrilateral, false}};
  std::vector<std::unique_ptr<FeatureExtractor>> extractors;
  for (const Variant& v : variants) {
    FeatureOptions options;
    options.device = device;
    options.scale_space = v.space;
    options.edge_test = v.edge_test;
    extractors.push_back(CreateFeatureExtractor(options));
    extractors.back()->Extract(Crop(photos[0], 0, 0, 64));  // warm-up (allocation, graphs)
  }
  DescriptorMatchOptions match_options;
  match_options.device = device;
  std::unique_ptr<DescriptorMatcher> matcher = CreateDescriptorMatcher(match_options);
  const Perturbation perturbations[] = {Perturbation::kNone, Perturbation::kNoise,
                                        Perturbation::kContrast, Perturbation::kJpeg};

  std::ostringstream md;
  md << "Photos:";
  for (size_t k = 0; k < images.size(); ++k) {
    md << " " << images[k] << " (" << photos[k].width << "x" << photos[k].height << ")";
  }
  md << ". Copy shifted by (" << dx << ", " << dy << ") px; correct within " << tolerance
     << " px; " << crops << " crops per photo and size; noise sigma " << noise
     << " (of [0, 1]); contrast 0.25 + 0.5 I; JPEG quality " << jpeg_quality
     << "; matcher: " << matcher->Description() << "; extractor: " << extractors[0]->Description()
     << ". Counts are sums over the crops; keypoints = A / B.\n\n"
     << "| size | perturbation | scale space | edge test | keypoints A / B | all matches | correct | precision | ms per extraction |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  for (int size : sizes) {
    // Crop positions: a grid over each photo's interior, shifted copy included.
    struct Position { int photo, x0, y0; };
    std::vector<Position> positions;
    for (size_t k = 0; k < photos.size(); ++k) {
      const int span_x = photos[k].width - size - dx, span_y = photos[k].height - size - dy;
      if (span_x < 0 || span_y < 0) {
        std::cerr << images[k] << " is smaller than " << size << " + shift\n";
        return 2;
      }
      for (int c = 0; c < crops; ++c) {
        const double t = (c + 0.5) / crops;
        positions.push_back({static_cast<int>(k), static_cast<int>(span_x * (0.15 + 0.7 * t)),
                             static_cast<int>(span_y * (0.2 + 0.6 * std::fmod(t * 2.618, 1.0)))});
      }
    }
    for (Perturbation kind : perturbations) {
      for (size_t v = 0; v < std::size(variants); ++v) {
        Counts counts;
        for (size_t c = 0; c < positions.size(); ++c) {
          const Position& pos = positions[c];
          const GrayImage a = Crop(photos[pos.photo], pos.x0, pos.y0, size);
          const GrayImage b = Perturb(Crop(photos[pos.photo], pos.x0 + dx, pos.y0 + dy, size), kind,
                                      noise, jpeg_quality, 1000 + c);
          std::vector<FeatureSet> features(2);
          Timer timer;
          features[0] = extractors[v]->Extract(a);
          features[1] = extractors[v]->Extract(b);
          counts.seconds += timer.ElapsedSeconds();
          counts.extractions += 2;
          const std::vector<FeatureMatch> matches =
              matcher->MatchPairs(features, {ImagePair{0, 1}}, nullptr)[0];
          counts.keypoints_a += features[0].size();
          counts.keypoints_b += features[1].size();
          counts.matches += static_cast<long>(matches.size());
          for (const FeatureMatch& m : matches) {
            const Keypoint& ka = features[0].keypoints[m.index1];
            const Keypoint& kb = features[1].keypoints[m.index2];
            const double ex = ka.x - dx - kb.x, ey = ka.y - dy - kb.y;
            if (ex * ex + ey * ey <= tolerance * tolerance) ++counts.correct;
          }
        }
        const Variant& var = variants[v];
        std::ostringstream precision, ms;
        precision.setf(std::ios::fixed);
        precision.precision(3);
        precision << (counts.matches > 0 ? static_cast<double>(counts.correct) / counts.matches : 0.0);
        ms.setf(std::ios::fixed);
        ms.precision(2);
        ms << 1e3 * counts.seconds / std::max(1, counts.extractions);
        md << "| " << size << "x" << size << " | " << Name(kind) << " | " << var.name << " | "
           << (var.edge_test ? "on" : "off") << " | " << counts.keypoints_a << " / "
           << counts.keypoints_b << " | " << counts.matches << " | " << counts.correct << " | "
           << precision.str() << " | " << ms.str() << " |\n";
        std::cerr << md.str().substr(md.str().rfind("| " + std::to_string(size) + "x")) << std::flush;
      }
    }
  }
  std::cout << md.str();
  if (!out_path.empty()) std::ofstream(out_path) << md.str();
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Main(argc, argv); });
}
