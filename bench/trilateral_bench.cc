// Trilateral filter benchmark: each step and the whole filter, CPU reference and GPU
// (published method vs optimised, CUDA events, warm-up, medians), on crops of a real photo.
//
//   trilateral_bench [--image PATH] [--sizes 100x100,640x640,...] [--sigma-c 3]
//                    [--cpu] [--cpu-full-max 320] [--gpu] [--gpu-repeats 10]
//                    [--published-max-pixels 2100000] [--check-max-pixels 410000] [--out FILE]
//                    [--no-published] (only the optimised GPU method and its fast-math variant)
//                    [--sift] (also: Gaussian vs trilateral SIFT, time and keypoints, on the
//                    devices selected by --cpu / --gpu; edge test on and off)
//
// Crops: the photo is downscaled (area) to 1280 or 2000 px wide, or used at full size,
// whichever is the smallest that holds the size, and cropped at its centre.
// CPU detail step above --cpu-full-max: evenly spaced rows are filtered (row_step) and the
// time is scaled by row_step; the table marks such figures as extrapolated.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "cuda/device.h"
#include "cuda/trilateral/trilateral_gpu.h"
#include "features/feature_extractor.h"
#include "features/image_preprocessing.h"
#include "features/trilateral/trilateral_filter.h"
#include "io/image_decode.h"

namespace proj {
namespace {

struct Size {
  int width = 0, height = 0;
};

GrayImage CentreCrop(const GrayImage& image, Size size) {
  GrayImage crop;
  crop.width = size.width;
  crop.height = size.height;
  crop.pixels.resize(static_cast<size_t>(size.width) * size.height);
  const int x0 = (image.width - size.width) / 2, y0 = (image.height - size.height) / 2;
  for (int y = 0; y < size.height; ++y) {
    std::copy_n(&image.pixels[static_cast<size_t>(y0 + y) * image.width + x0], size.width,
                &crop.pixels[static_cast<size_t>(y) * size.width]);
  }
  return crop;
}

// Worst case for the detail step (spec §5.2): smooth shading and one disc with a strong edge,
// which sets sigma_r high, so most pixels reach the largest levels.
GrayImage SyntheticImage(Size size) {
  GrayImage image;
  image.width = size.width;
  image.height = size.height;
  image.pixels.resize(static_cast<size_t>(size.width) * size.height);
  const double cx = 0.6 * size.width, cy = 0.4 * size.height, radius = 0.15 * std::min(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      double v = 0.4 + 0.1 * std::sin(6.0 * x / size.width) * std::cos(4.0 * y / size.height);
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < radius * radius) v += 0.4;
      image.pixels[static_cast<size_t>(y) * size.width + x] = static_cast<float>(v);
    }
  }
  return image;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::string Fixed(double value, int digits = 3) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(value >= 1000 ? 0 : value >= 100 ? 1 : digits);
  out << value;
  return out.str();
}

void CountTaps(const std::vector<uint8_t>& level, int w, int h, double sigma_c, double* published,
               double* optimized);

struct CpuTimes {
  double gradients = 0, stack = 0, gradient_filter = 0, region = 0, detail = 0;
  int row_step = 1;
};

CpuTimes TimeCpu(const GrayImage& image, double sigma_c, int full_max, int repeats,
                 std::vector<uint8_t>* level_out) {
  CpuTimes result;
  const int w = image.width, h = image.height;
  const int threads = 0;
  std::vector<double> t_grad, t_stack, t_filter, t_region;
  std::vector<float> gx, gy, g, sgx, sgy;
  std::vector<uint8_t> level;
  float sigma_r = 0;
  const int level_max = trilateral::LevelMax(w, h);
  for (int run = 0; run < repeats; ++run) {
    Timer timer;
    trilateral::ComputeGradients(image.pixels.data(), w, h, threads, &gx, &gy, &g);
    sigma_r = trilateral::RangeSigma(g, 0.15);
    t_grad.push_back(timer.ElapsedSeconds() * 1e3);
    timer.Restart();
    const trilateral::MinMaxStack<float> stack = trilateral::BuildMinMaxStack(g, w, h, level_max, threads);
    t_stack.push_back(timer.ElapsedSeconds() * 1e3);
    timer.Restart();
    trilateral::BilateralGradientFilter(gx, gy, g, w, h, sigma_c, sigma_r,
                                        trilateral::GradientHalfWindow(sigma_c), threads, &sgx, &sgy);
    t_filter.push_back(timer.ElapsedSeconds() * 1e3);
    timer.Restart();
    level = trilateral::FindAdaptiveRegion(stack, g, w, h, sigma_r, threads);
    t_region.push_back(timer.ElapsedSeconds() * 1e3);
  }
  result.gradients = Median(t_grad);
  result.stack = Median(t_stack);
  result.gradient_filter = Median(t_filter);
  result.region = Median(t_region);
  result.row_step = std::max(w, h) <= full_max ? 1 : std::max(1, h / 32);
  Timer timer;
  trilateral::DetailBilateralFilter(image.pixels.data(), sgx, sgy, level, w, h, sigma_c, sigma_r, 0,
                                    threads, result.row_step);
  result.detail = timer.ElapsedSeconds() * 1e3 * result.row_step;
  *level_out = level;
  return result;
}

// Detail taps the published method visits (full clipped squares) and the optimised one
// (clipped squares cut to the disk of the GPU's default options).
void CountTaps(const std::vector<uint8_t>& level, int w, int h, double sigma_c, double* published,
               double* optimized) {
  const cuda::TrilateralGpuOptions defaults;
  const double s_cut = static_cast<double>(trilateral::DiskCut(
      static_cast<float>(1.0 / (2.0 * sigma_c * sigma_c)), defaults.fast_math,
      static_cast<float>(defaults.domain_cut_sigmas)));
  std::vector<double> pub(h, 0), opt(h, 0);
  ParallelFor(0, h, 0, [&](int j, int) {
    for (int i = 0; i < w; ++i) {
      const int r = trilateral::DetailRadius(level[static_cast<size_t>(j) * w + i]);
      const int x0 = std::max(-r, -i), x1 = std::min(r, w - 1 - i);
      const int y0 = std::max(-r, -j), y1 = std::min(r, h - 1 - j);
      pub[j] += static_cast<double>(x1 - x0 + 1) * (y1 - y0 + 1);
      for (int n = y0; n <= y1; ++n) {
        const double rest = s_cut - static_cast<double>(n) * n;
        if (rest < 0) continue;
        const int limit = std::min(r, static_cast<int>(std::sqrt(rest)));
        opt[j] += std::max(0, std::min(limit, x1) - std::max(-limit, x0) + 1);
      }
    }
  });
  *published = 0;
  *optimized = 0;
  for (int j = 0; j < h; ++j) {
    *published += pub[j];
    *optimized += opt[j];
  }
}

struct GpuRow {
  cuda::TrilateralGpuStepTimes median;
};

cuda::TrilateralGpuStepTimes TimeGpu(cuda::TrilateralFilterGpu& gpu, const GrayImage& image,
                                     const cuda::TrilateralGpuOptions& options, int warmup,
                                     int repeats, std::vector<float>* output) {
  output->resize(image.pixels.size());
  std::vector<std::vector<double>> samples(10);
  for (int run = 0; run < warmup + repeats; ++run) {
    gpu.Filter(image.pixels.data(), image.width, image.height, options, output->data());
    if (run < warmup) continue;
    const cuda::TrilateralGpuStepTimes t = gpu.LastStepTimes();
    const float values[10] = {t.gradients_ms, t.range_sigma_ms, t.stack_ms, t.gradient_filter_ms,
                              t.region_ms,    t.sort_ms,        t.detail_ms, t.total_ms,
                              t.upload_ms,    t.download_ms};
    for (int k = 0; k < 10; ++k) samples[k].push_back(values[k]);
  }
  cuda::TrilateralGpuStepTimes m;
  float* fields[10] = {&m.gradients_ms, &m.range_sigma_ms, &m.stack_ms, &m.gradient_filter_ms,
                       &m.region_ms,    &m.sort_ms,        &m.detail_ms, &m.total_ms,
                       &m.upload_ms,    &m.download_ms};
  for (int k = 0; k < 10; ++k) *fields[k] = static_cast<float>(Median(samples[k]));
  return m;
}

double MaxRelativeError(const std::vector<float>& a, const std::vector<float>& b,
                        const std::vector<float>& input) {
  const auto [lo, hi] = std::minmax_element(input.begin(), input.end());
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double difference = std::abs(static_cast<double>(a[i]) - b[i]);
    if (std::isnan(difference)) return NAN;  // std::max would skip it
    worst = std::max(worst, difference);
  }
  return worst / (static_cast<double>(*hi) - *lo);
}

int Main(int argc, char** argv) {
  CLI::App app("Trilateral filter benchmark (CPU reference and GPU)");
  std::string image_path;
  std::string sizes_text = "100x100,160x160,320x320,640x640,1920x1080,4000x2250";
  double sigma_c = 3.0;
  bool run_cpu = false, run_gpu = false;
  int cpu_full_max = 320, gpu_repeats = 10;
  long published_max_pixels = 2100000, check_max_pixels = 410000;
  std::string out_path;
  bool run_sift = false, no_published = false;
  app.add_flag("--no-published", no_published, "skip the published GPU method");
  app.add_flag("--sift", run_sift, "also time Gaussian vs trilateral SIFT");
  app.add_option("--image", image_path, "photo to crop (JPEG/PNG), or 'synthetic' (worst case)")->required();
  app.add_option("--sizes", sizes_text, "comma-separated WxH list");
  app.add_option("--sigma-c", sigma_c, "spatial sigma, pixels");
  app.add_flag("--cpu", run_cpu, "time the CPU reference");
  app.add_option("--cpu-full-max", cpu_full_max, "largest side filtered in full on the CPU");
  app.add_flag("--gpu", run_gpu, "time the GPU methods");
  app.add_option("--gpu-repeats", gpu_repeats, "timed GPU runs per method (median)");
  app.add_option("--published-max-pixels", published_max_pixels, "largest image for the published GPU method");
  app.add_option("--check-max-pixels", check_max_pixels, "largest image checked against the CPU reference");
  app.add_option("--out", out_path, "markdown output file");
  if (const auto exit_code = ParseBenchArguments(app, argc, argv)) return *exit_code;

  std::vector<Size> sizes;
  {
    std::stringstream list(sizes_text);
    std::string item;
    while (std::getline(list, item, ',')) {
      Size s;
      if (std::sscanf(item.c_str(), "%dx%d", &s.width, &s.height) != 2) {
        std::cerr << "bad size '" << item << "'\n";
        return 2;
      }
      sizes.push_back(s);
    }
  }
  const bool synthetic = image_path == "synthetic";
  const GrayImage full = synthetic ? SyntheticImage(Size{4000, 2250}) : ToGrayImage(ReadImageFile(image_path));
  double scale = 1;
  const GrayImage small = LimitImageSize(full, 1280, &scale);
  const GrayImage medium = LimitImageSize(full, 2000, &scale);

  std::ostringstream md;
  md << "Image: " << (synthetic ? std::string("synthetic smooth shading + one disc (worst case, sec. 5.2)") : image_path)
     << " (" << full.width << "x" << full.height << "), sigma_c = " << sigma_c
     << ", grey in [0, 1], float32.\n\n";
  if (run_cpu) {
    md << "### CPU reference (" << ResolveNumThreads(0) << " threads), ms\n\n"
       << "| size | gradients+sigma_r | min-max stack | gradient filter | adaptive region | detail filter | whole | detail taps: full windows / optimised disk | L histogram (levels 0..) |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
  }
  std::unique_ptr<cuda::TrilateralFilterGpu> gpu;
  if (run_gpu) {
    if (!cuda::DeviceAvailable()) {
      std::cerr << "no GPU: " << cuda::DeviceDescription() << "\n";
      return 1;
    }
    gpu = std::make_unique<cuda::TrilateralFilterGpu>();
  }
  std::ostringstream gpu_md;
  if (run_gpu) {
    gpu_md << "### GPU: " << cuda::DeviceDescription() << ", ms (median of " << gpu_repeats
           << " after 2 warm-ups; CUDA events)\n\n"
           << "| size | method | gradients | sigma_r | stack | gradient filter | region | sort | detail | whole (device) | upload+download | detail taps | max err / range vs CPU | vs published GPU |\n"
           << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  }
  for (const Size& size : sizes) {
    const GrayImage& source = (size.width <= small.width && size.height <= small.height) ? small
                              : (size.width <= medium.width && size.height <= medium.height) ? medium
                                                                                               : full;
    if (size.width > source.width || size.height > source.height) {
      std::cerr << "size " << size.width << "x" << size.height << " larger than the photo\n";
      return 2;
    }
    const GrayImage crop = synthetic ? SyntheticImage(size) : CentreCrop(source, size);
    const std::string name = std::to_string(size.width) + "x" + std::to_string(size.height);
    std::cerr << "== " << name << "\n";
    std::vector<uint8_t> level;
    if (run_cpu) {
      const int repeats = crop.pixels.size() <= 1000000 ? 3 : 1;
      const CpuTimes t = TimeCpu(crop, sigma_c, cpu_full_max, repeats, &level);
      std::vector<int> histogram;
      for (uint8_t l : level) {
        if (l >= histogram.size()) histogram.resize(l + 1, 0);
        ++histogram[l];
      }
      std::ostringstream hist;
      for (size_t l = 0; l < histogram.size(); ++l) {
        hist << (l ? " " : "") << Fixed(100.0 * histogram[l] / level.size(), 1);
      }
      const double whole = t.gradients + t.stack + t.gradient_filter + t.region + t.detail;
      double taps_full = 0, taps_disk = 0;
      CountTaps(level, crop.width, crop.height, sigma_c, &taps_full, &taps_disk);
      md << "| " << name << " | " << Fixed(t.gradients) << " | " << Fixed(t.stack) << " | "
         << Fixed(t.gradient_filter) << " | " << Fixed(t.region) << " | " << Fixed(t.detail)
         << (t.row_step > 1 ? " (extrapolated from 1/" + std::to_string(t.row_step) + " of the rows)" : "")
         << " | " << Fixed(whole) << " | " << Fixed(taps_full / 1e9, 3) << "e9 / "
         << Fixed(taps_disk / 1e9, 3) << "e9 | " << hist.str() << " % |\n";
      std::cerr << md.str().substr(md.str().rfind("| " + name)) << std::flush;
    }
    if (run_gpu) {
      std::vector<float> reference;
      const bool check = static_cast<long>(crop.pixels.size()) <= check_max_pixels;
      if (check) {
        TrilateralOptions cpu_options;
        cpu_options.sigma_c = sigma_c;
        reference = TrilateralFilter(crop.pixels.data(), crop.width, crop.height, cpu_options);
      }
      struct Variant {
        const char* name;
        cuda::TrilateralGpuMethod method;
        bool fast;
        cuda::TrilateralDetailSchedule schedule;
      };
      using Schedule = cuda::TrilateralDetailSchedule;
      const Variant variants[] = {
          {"published", cuda::TrilateralGpuMethod::kPublished, false, Schedule::kWarpAndThread},
          {"optimised (default), thread per pixel", cuda::TrilateralGpuMethod::kOptimized, false, Schedule::kThreadPerPixel},
          {"optimised fast-math, thread per pixel", cuda::TrilateralGpuMethod::kOptimized, true, Schedule::kThreadPerPixel},
          {"optimised, warp + thread", cuda::TrilateralGpuMethod::kOptimized, false, Schedule::kWarpAndThread},
          {"optimised pipeline, full-window kernel", cuda::TrilateralGpuMethod::kOptimized, false, Schedule::kFullWindow}};
      std::vector<float> published_output;
      for (const Variant& v : variants) {
        const bool published = v.method == cuda::TrilateralGpuMethod::kPublished;
        const bool full_window = published || v.schedule == Schedule::kFullWindow;
        if (full_window && (no_published || static_cast<long>(crop.pixels.size()) > published_max_pixels)) continue;
        if (v.schedule == Schedule::kFullWindow && crop.pixels.size() > 200000) continue;
        cuda::TrilateralGpuOptions options;
        options.sigma_c = sigma_c;
        options.method = v.method;
        options.fast_math = v.fast;
        options.detail_schedule = v.schedule;
        std::vector<float> output;
        const int repeats = full_window ? std::max(1, std::min(gpu_repeats, crop.pixels.size() > 500000 ? 2 : 5)) : gpu_repeats;
        const cuda::TrilateralGpuStepTimes t = TimeGpu(*gpu, crop, options, full_window ? 1 : 2, repeats, &output);
        const cuda::TrilateralGpuDiagnostics diagnostics = gpu->LastDiagnostics();
        double taps_published = 0, taps_optimized = 0;
        CountTaps(diagnostics.level, crop.width, crop.height, sigma_c, &taps_published, &taps_optimized);
        const double taps = full_window ? taps_published : taps_optimized;
        gpu_md << "| " << name << " | " << v.name << " | " << Fixed(t.gradients_ms) << " | "
               << Fixed(t.range_sigma_ms) << " | " << Fixed(t.stack_ms) << " | "
               << Fixed(t.gradient_filter_ms) << " | " << Fixed(t.region_ms) << " | "
               << Fixed(t.sort_ms) << " | " << Fixed(t.detail_ms) << " | " << Fixed(t.total_ms)
               << " | " << Fixed(t.upload_ms + t.download_ms) << " | " << Fixed(taps / 1e9, 3)
               << "e9 | "
               << (check ? Fixed(MaxRelativeError(output, reference, crop.pixels) * 1e6, 2) + "e-6" : "-")
               << " | "
               << (!published && !published_output.empty()
                       ? Fixed(MaxRelativeError(output, published_output, crop.pixels) * 1e6, 2) + "e-6"
                       : "-")
               << " |\n";
        if (published) published_output = output;
        std::cerr << gpu_md.str().substr(gpu_md.str().rfind("| " + name)) << std::flush;
      }
    }
  }
  std::ostringstream sift_md;
  if (run_sift) {
    sift_md << "\n### SIFT, Gaussian vs trilateral scale space, through the public extractor\n\n"
            << "| size | device | scale space | edge test | time ms (median of 5 after 1 warm-up; CPU: 1 run) | keypoints |\n|---|---|---|---|---|---|\n";
    for (const Size& size : sizes) {
      const GrayImage& source = (size.width <= small.width && size.height <= small.height) ? small
                                : (size.width <= medium.width && size.height <= medium.height) ? medium
                                                                                                 : full;
      const GrayImage crop = synthetic ? SyntheticImage(size) : CentreCrop(source, size);
      const std::string name = std::to_string(size.width) + "x" + std::to_string(size.height);
      std::vector<ComputeDevice> devices;
      if (run_cpu) devices.push_back(ComputeDevice::kCpu);
      if (run_gpu) devices.push_back(ComputeDevice::kGpu);
      for (ComputeDevice device : devices) {
        for (ScaleSpaceType space : {ScaleSpaceType::kGaussian, ScaleSpaceType::kTrilateral}) {
          for (bool edge_test : {true, false}) {
            FeatureOptions options;
            options.device = device;
            options.scale_space = space;
            options.edge_test = edge_test;
            std::unique_ptr<FeatureExtractor> extractor = CreateFeatureExtractor(options);
            extractor->Extract(crop);  // warm-up
            std::vector<double> times;
            FeatureSet features;
            for (int run = 0; run < (device == ComputeDevice::kGpu ? 5 : 1); ++run) {
              Timer timer;
              features = extractor->Extract(crop);
              times.push_back(timer.ElapsedSeconds() * 1e3);
            }
            const double ms = Median(times);
            sift_md << "| " << name << " | " << (device == ComputeDevice::kCpu ? "cpu" : "gpu") << " | "
                    << (space == ScaleSpaceType::kGaussian ? "gaussian" : "trilateral") << " | "
                    << (edge_test ? "on" : "off") << " | " << Fixed(ms) << " | " << features.size() << " |\n";
            std::cerr << sift_md.str().substr(sift_md.str().rfind("| " + name)) << std::flush;
          }
        }
      }
    }
  }
  const std::string text = md.str() + "\n" + gpu_md.str() + sift_md.str();
  std::cout << text;
  if (!out_path.empty()) std::ofstream(out_path) << text;
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Main(argc, argv); });
}
