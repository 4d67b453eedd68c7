// Depth maps of dense stereo measured (issue 24; methods in bench/RESULTS-dense.md):
//
//   dense_depth_accuracy truth TRUE_DIR ESTIMATED_DIR --images IMAGES_DIR
//       [--kind photometric|geometric] [--model MODEL_DIR --gt GT_DIR] [--tolerance 0.01]
//       [--texture-std 2] [--texture-radius 2] [--json FILE] [--masks DIR] [--quiet]
//     Estimated maps (ESTIMATED_DIR/NAME.KIND.bin, e.g. OUT/dense/stereo/depth_maps) against
//     the true ones `sfm synth` writes (TRUE_DIR/NAME.bin, i.e. SYNTH/depth), per image and
//     overall:
//       accuracy     share of valid estimated pixels (depth > 0) within `tolerance` relative
//                    error of the true depth (an estimate where the truth is empty, the sky,
//                    counts as wrong);
//       completeness share of textured pixels (true depth > 0 and grey-level std dev over the
//                    window >= texture-std, dense_eval.h) with a valid estimate;
//       complete_within  share of textured pixels with a valid estimate within tolerance.
//     Accuracy is counted on the estimated grid, completeness on the true grid (so a missing
//     map counts as empty). With --model (the COLMAP model the depth maps were computed from,
//     OUT/model) and --gt (SYNTH/gt_dense_cameras), estimated depths are multiplied by the
//     scale of the similarity that aligns the model's camera centres to the true ones (sfm
//     evaluate's alignment): depth is camera-frame z, which a similarity scales by s and which
//     rotation and translation leave alone once the poses are aligned; and a pixel maps
//     through the model's camera (undistortion, resizing) to the photo pixel it looked at.
//     Without them, depths are taken in the truth's units and pixels map by scaling alone.
//
//   dense_depth_accuracy compare DIR_A DIR_B [--kind K] [--kind-b K] [--tolerance 0.005]
//       [--json FILE] [--quiet]
//     Two runs' maps of the same images (e.g. GPU and CPU): of the pixels valid in both, the
//     share that agree (|a - b| <= tolerance * (a + b) / 2), and the shares of the pixels valid
//     in either that are valid in one only. Maps of different sizes are compared on the smaller
//     grid, sampling the larger at the scaled pixel centre (nearest). Both runs must share the
//     model's frame (the same sparse model, as CPU and GPU runs produce).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "bench/dense_eval.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "mvs/depth_map.h"

namespace proj {
namespace {

bool ValidDepth(float d) { return std::isfinite(d) && d > 0; }

// Counts of one image (or, summed, of all) against the truth.
struct TruthCounts {
  long long valid = 0;                // estimated pixels with a depth
  long long valid_on_background = 0;  // ... where the truth has none (or outside the photo)
  long long accurate = 0;             // ... within tolerance of the truth
  long long textured = 0;             // true pixels with depth and texture
  long long textured_valid = 0;       // ... whose estimated pixel has a depth
  long long textured_accurate = 0;    // ... within tolerance

  void Add(const TruthCounts& o) {
    valid += o.valid;
    valid_on_background += o.valid_on_background;
    accurate += o.accurate;
    textured += o.textured;
    textured_valid += o.textured_valid;
    textured_accurate += o.textured_accurate;
  }
};

struct ImageTruthResult {
  std::string name;
  bool estimated = false;
  int width = 0, height = 0;  // the estimated map's
  TruthCounts counts;
  std::vector<float> relative_errors;  // signed (estimate - truth) / truth, valid pixels on surface
};

std::string TruthCountsJson(const TruthCounts& c, const std::vector<float>& errors) {
  std::vector<double> absolute, signed_errors;
  for (float e : errors) {
    absolute.push_back(std::abs(e));
    signed_errors.push_back(e);
  }
  std::ostringstream out;
  out << "\"valid\": " << c.valid << ", \"valid_on_background\": " << c.valid_on_background
      << ", \"accurate\": " << c.accurate << ", \"textured\": " << c.textured
      << ", \"textured_valid\": " << c.textured_valid
      << ", \"textured_accurate\": " << c.textured_accurate
      << ", \"accuracy\": " << JsonNumber(Share(c.accurate, c.valid), 4)
      << ", \"completeness\": " << JsonNumber(Share(c.textured_valid, c.textured), 4)
      << ", \"complete_within\": " << JsonNumber(Share(c.textured_accurate, c.textured), 4)
      << ", \"median_abs_relative_error\": " << JsonNumber(Quantile(absolute, 0.5), 4)
      << ", \"p90_abs_relative_error\": " << JsonNumber(Quantile(absolute, 0.9), 4)
      << ", \"median_relative_error\": " << JsonNumber(Quantile(signed_errors, 0.5), 4);
  return out.str();
}

void PrintTruthRow(const std::string& name, const std::string& size, const TruthCounts& c,
                   const std::vector<float>& errors) {
  std::vector<double> absolute, signed_errors;
  for (float e : errors) {
    absolute.push_back(std::abs(e));
    signed_errors.push_back(e);
  }
  std::printf("%-14s %11s %9lld %7.2f%% %9lld %7.2f%% %7.2f%% %9.4f%% %+9.4f%%\n", name.c_str(),
              size.c_str(), c.valid, 100 * Share(c.accurate, c.valid), c.textured,
              100 * Share(c.textured_valid, c.textured), 100 * Share(c.textured_accurate, c.textured),
              100 * Quantile(absolute, 0.5), 100 * Quantile(signed_errors, 0.5));
}

struct TruthArgs {
  std::string true_dir, estimated_dir, images_dir, kind = "photometric", model_dir, gt_dir;
  std::string json_path, masks_dir;
  double tolerance = 0.01;
  TextureOptions texture;
  bool quiet = false;
};

ImageTruthResult MeasureImage(const TruthArgs& args, const std::string& name,
                              const std::string& true_path, const std::string* estimated_path,
                              const AlignedModel* aligned, double depth_scale) {
  ImageTruthResult result;
  result.name = name;
  const mvs::DepthMap truth = mvs::ReadDepthMap(true_path);
  const std::string image_path = args.images_dir + "/" + name;
  const Image image = ReadImageFile(image_path);
  PROJ_REQUIRE(image.width == truth.width() && image.height == truth.height(),
               "'" << image_path << "' is " << image.width << "x" << image.height
                   << " but its true depth map '" << true_path << "' is " << truth.width() << "x"
                   << truth.height());
  std::vector<uint8_t> textured = TexturedPixels(image, args.texture);
  for (int y = 0; y < truth.height(); ++y) {
    for (int x = 0; x < truth.width(); ++x) {
      if (!ValidDepth(truth.At(x, y))) textured[static_cast<size_t>(y) * truth.width() + x] = 0;
    }
  }
  if (!args.masks_dir.empty()) {
    Image mask{truth.width(), truth.height(), 1, {}};
    for (uint8_t t : textured) mask.data.push_back(t ? 255 : 0);
    WritePng(args.masks_dir + "/" + name + ".textured.png", mask);
  }

  mvs::DepthMap estimated;
  if (estimated_path != nullptr) {
    estimated = mvs::ReadDepthMap(*estimated_path);
    result.estimated = true;
    result.width = estimated.width();
    result.height = estimated.height();
  }
  const Camera* camera = aligned != nullptr ? aligned->CameraOf(name) : nullptr;
  std::optional<DepthMapCorrespondence> correspondence;
  if (result.estimated) {
    correspondence = camera != nullptr
                         ? DepthMapCorrespondence::ThroughCamera(*camera, estimated.width(),
                                                                 estimated.height(),
                                                                 truth.width(), truth.height())
                         : DepthMapCorrespondence::Scaled(estimated.width(), estimated.height(),
                                                          truth.width(), truth.height());
  }
  // Accuracy on the estimated grid; `accurate` remembers which estimated pixels passed.
  std::vector<uint8_t> accurate(static_cast<size_t>(estimated.width()) * estimated.height(), 0);
  TruthCounts& c = result.counts;
  for (int y = 0; y < estimated.height(); ++y) {
    for (int x = 0; x < estimated.width(); ++x) {
      const float d = estimated.At(x, y);
      if (!ValidDepth(d)) continue;
      ++c.valid;
      const auto q = correspondence->TrueFromEstimated(x, y);
      const float t = q ? truth.At(q->x(), q->y()) : 0.0f;
      if (!ValidDepth(t)) {
        ++c.valid_on_background;
        continue;
      }
      const double relative = (depth_scale * d - t) / t;
      result.relative_errors.push_back(static_cast<float>(relative));
      if (std::abs(relative) <= args.tolerance) {
        ++c.accurate;
        accurate[static_cast<size_t>(y) * estimated.width() + x] = 1;
      }
    }
  }
  // Completeness on the true grid.
  for (int y = 0; y < truth.height(); ++y) {
    for (int x = 0; x < truth.width(); ++x) {
      if (!textured[static_cast<size_t>(y) * truth.width() + x]) continue;
      ++c.textured;
      if (!result.estimated) continue;
      const auto p = correspondence->EstimatedFromTrue(x, y);
      if (!p || !ValidDepth(estimated.At(p->x(), p->y()))) continue;
      ++c.textured_valid;
      c.textured_accurate += accurate[static_cast<size_t>(p->y()) * estimated.width() + p->x()];
    }
  }
  return result;
}

int RunTruth(const TruthArgs& args) {
  const std::string suffix = "." + args.kind + ".bin";
  const auto truths = ListFilesWithSuffix(args.true_dir, ".bin");
  PROJ_REQUIRE(!truths.empty(), "no true depth maps (NAME.bin) in '" << args.true_dir << "'");
  const auto estimates = ListFilesWithSuffix(args.estimated_dir, suffix);
  if (!args.masks_dir.empty()) std::filesystem::create_directories(args.masks_dir);
  std::optional<AlignedModel> aligned;
  double depth_scale = 1;
  if (!args.model_dir.empty()) {
    aligned = AlignModelToTruth(args.model_dir, args.gt_dir);
    depth_scale = aligned->evaluation.true_from_model.scale;
  }

  std::vector<ImageTruthResult> results;
  std::vector<std::string> extra;  // estimated maps without truth
  for (const auto& [name, path] : estimates) {
    if (!truths.count(name)) extra.push_back(name);
  }
  if (!args.quiet) {
    std::printf("%-14s %11s %9s %8s %9s %8s %8s %10s %10s\n", "image", "estimated", "valid",
                "accuracy", "textured", "complete", "compl1%", "med|err|", "med err");
  }
  TruthCounts overall;
  std::vector<float> all_errors;
  for (const auto& [name, true_path] : truths) {
    const auto it = estimates.find(name);
    ImageTruthResult r = MeasureImage(args, name, true_path,
                                      it == estimates.end() ? nullptr : &it->second,
                                      aligned ? &*aligned : nullptr, depth_scale);
    if (!args.quiet) {
      PrintTruthRow(name, r.estimated ? std::to_string(r.width) + "x" + std::to_string(r.height)
                                      : "missing",
                    r.counts, r.relative_errors);
    }
    overall.Add(r.counts);
    all_errors.insert(all_errors.end(), r.relative_errors.begin(), r.relative_errors.end());
    results.push_back(std::move(r));
  }
  int num_estimated = 0;
  for (const auto& r : results) num_estimated += r.estimated;
  PrintTruthRow("overall", std::to_string(num_estimated) + "/" + std::to_string(results.size()),
                overall, all_errors);
  std::printf("tolerance %.3g%% relative; textured: std dev >= %.3g grey levels over %dx%d; "
              "depth scale %.6g; pixels mapped %s\n",
              100 * args.tolerance, args.texture.min_std_dev, 2 * args.texture.window_radius_px + 1,
              2 * args.texture.window_radius_px + 1, depth_scale,
              aligned ? "through the model's cameras" : "by scaling");
  for (const auto& name : extra) std::printf("estimated map without truth: %s\n", name.c_str());

  std::ostringstream json;
  json << "{\n  \"mode\": \"truth\", \"kind\": \"" << args.kind
       << "\", \"tolerance\": " << JsonNumber(args.tolerance)
       << ", \"texture_window_px\": " << 2 * args.texture.window_radius_px + 1
       << ", \"texture_min_std_dev\": " << JsonNumber(args.texture.min_std_dev)
       << ",\n  \"depth_scale\": " << JsonNumber(depth_scale, 9)
       << ", \"pixels_mapped\": \"" << (aligned ? "camera" : "scaled") << "\"";
  if (aligned) {
    const PoseEvaluation& e = aligned->evaluation;
    json << ", \"registered\": " << e.num_registered << ", \"ground_truth_cameras\": "
         << e.num_ground_truth << ", \"median_position_error\": "
         << JsonNumber(e.median_position_error) << ", \"median_rotation_error_deg\": "
         << JsonNumber(e.median_rotation_error_deg);
  }
  json << ",\n  \"images_estimated\": " << num_estimated << ", \"images\": " << results.size()
       << ",\n  \"overall\": {" << TruthCountsJson(overall, all_errors) << "},\n  \"per_image\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    json << (i ? ",\n" : "\n") << "    {\"name\": \"" << r.name << "\", \"estimated\": "
         << (r.estimated ? "true" : "false") << ", \"width\": " << r.width
         << ", \"height\": " << r.height << ", " << TruthCountsJson(r.counts, r.relative_errors)
         << "}";
  }
  json << "\n  ]\n}\n";
  WriteTextFile(args.json_path, json.str());
  return 0;
}

struct CompareCounts {
  long long both = 0, agree = 0, only_a = 0, only_b = 0;
  void Add(const CompareCounts& o) {
    both += o.both;
    agree += o.agree;
    only_a += o.only_a;
    only_b += o.only_b;
  }
  double AgreeShare() const { return Share(agree, both); }
  double OnlyAShare() const { return Share(only_a, both + only_a + only_b); }
  double OnlyBShare() const { return Share(only_b, both + only_a + only_b); }
};

// On the smaller grid (A's when equal), the other sampled at the scaled pixel centre.
CompareCounts CompareMaps(const mvs::DepthMap& a, const mvs::DepthMap& b, double tolerance) {
  const bool a_is_base = 1.0 * a.width() * a.height() <= 1.0 * b.width() * b.height();
  const mvs::DepthMap& base = a_is_base ? a : b;
  const mvs::DepthMap& other = a_is_base ? b : a;
  const DepthMapCorrespondence map = DepthMapCorrespondence::Scaled(
      base.width(), base.height(), other.width(), other.height());
  CompareCounts c;
  for (int y = 0; y < base.height(); ++y) {
    for (int x = 0; x < base.width(); ++x) {
      const auto q = map.TrueFromEstimated(x, y);
      const float d_base = base.At(x, y);
      const float d_other = q ? other.At(q->x(), q->y()) : 0.0f;
      const float da = a_is_base ? d_base : d_other, db = a_is_base ? d_other : d_base;
      const bool va = ValidDepth(da), vb = ValidDepth(db);
      if (va && vb) {
        ++c.both;
        c.agree += std::abs(da - db) <= tolerance * 0.5 * (da + db);
      } else if (va) {
        ++c.only_a;
      } else if (vb) {
        ++c.only_b;
      }
    }
  }
  return c;
}

struct CompareArgs {
  std::string dir_a, dir_b, kind = "photometric", kind_b, json_path;
  double tolerance = 0.005;
  bool quiet = false;
};

int RunCompare(const CompareArgs& args) {
  const std::string kind_b = args.kind_b.empty() ? args.kind : args.kind_b;
  const auto maps_a = ListFilesWithSuffix(args.dir_a, "." + args.kind + ".bin");
  const auto maps_b = ListFilesWithSuffix(args.dir_b, "." + kind_b + ".bin");
  std::set<std::string> names;
  for (const auto& m : maps_a) names.insert(m.first);
  for (const auto& m : maps_b) names.insert(m.first);
  PROJ_REQUIRE(!names.empty(), "no " << args.kind << " depth maps in '" << args.dir_a
                                     << "' nor '" << args.dir_b << "'");
  if (!args.quiet) {
    std::printf("%-14s %11s %11s %10s %8s %8s %8s\n", "image", "A", "B", "both", "agree",
                "A only", "B only");
  }
  CompareCounts overall;
  std::vector<std::string> missing;
  std::ostringstream rows;
  for (const auto& name : names) {
    const auto a = maps_a.find(name), b = maps_b.find(name);
    if (a == maps_a.end() || b == maps_b.end()) {
      missing.push_back(name + (a == maps_a.end() ? " (not in A)" : " (not in B)"));
      continue;
    }
    const mvs::DepthMap map_a = mvs::ReadDepthMap(a->second), map_b = mvs::ReadDepthMap(b->second);
    const CompareCounts c = CompareMaps(map_a, map_b, args.tolerance);
    overall.Add(c);
    const std::string size_a = std::to_string(map_a.width()) + "x" + std::to_string(map_a.height());
    const std::string size_b = std::to_string(map_b.width()) + "x" + std::to_string(map_b.height());
    if (!args.quiet) {
      std::printf("%-14s %11s %11s %10lld %7.2f%% %7.2f%% %7.2f%%\n", name.c_str(), size_a.c_str(),
                  size_b.c_str(), c.both, 100 * c.AgreeShare(), 100 * c.OnlyAShare(),
                  100 * c.OnlyBShare());
    }
    rows << (rows.tellp() > 0 ? ",\n" : "\n") << "    {\"name\": \"" << name << "\", \"size_a\": \""
         << size_a << "\", \"size_b\": \"" << size_b << "\", \"both\": " << c.both
         << ", \"agree\": " << JsonNumber(c.AgreeShare(), 4)
         << ", \"only_a\": " << JsonNumber(c.OnlyAShare(), 4)
         << ", \"only_b\": " << JsonNumber(c.OnlyBShare(), 4) << "}";
  }
  std::printf("%-14s %11s %11s %10lld %7.2f%% %7.2f%% %7.2f%%\n", "overall", "", "", overall.both,
              100 * overall.AgreeShare(), 100 * overall.OnlyAShare(), 100 * overall.OnlyBShare());
  std::printf("agree: |a - b| <= %.3g%% of their mean, of pixels valid in both; A/B only: of "
              "pixels valid in either\n", 100 * args.tolerance);
  for (const auto& m : missing) std::printf("missing: %s\n", m.c_str());

  std::ostringstream json;
  json << "{\n  \"mode\": \"compare\", \"a\": \"" << args.dir_a << "\", \"b\": \"" << args.dir_b
       << "\", \"kind_a\": \"" << args.kind << "\", \"kind_b\": \"" << kind_b
       << "\", \"tolerance\": " << JsonNumber(args.tolerance) << ",\n  \"overall\": {\"both\": "
       << overall.both << ", \"agree\": " << JsonNumber(overall.AgreeShare(), 4)
       << ", \"only_a\": " << JsonNumber(overall.OnlyAShare(), 4)
       << ", \"only_b\": " << JsonNumber(overall.OnlyBShare(), 4) << "},\n  \"missing\": [";
  for (size_t i = 0; i < missing.size(); ++i) json << (i ? ", \"" : "\"") << missing[i] << "\"";
  json << "],\n  \"per_image\": [" << rows.str() << "\n  ]\n}\n";
  WriteTextFile(args.json_path, json.str());
  return 0;
}

const std::vector<std::string> kKinds = {"photometric", "geometric"};

int Run(int argc, char** argv) {
  CLI::App app{"Dense depth maps against true depth (synthetic scene) or against each other"};
  TruthArgs truth;
  CLI::App* truth_app = app.add_subcommand("truth", "Estimated maps against `sfm synth`'s true depth");
  truth_app->add_option("TRUE_DIR", truth.true_dir, "True depth maps NAME.bin (SYNTH/depth)")->required();
  truth_app->add_option("ESTIMATED_DIR", truth.estimated_dir,
                        "Estimated maps NAME.KIND.bin (OUT/dense/stereo/depth_maps)")->required();
  truth_app->add_option("--images", truth.images_dir, "The rendered photos (SYNTH/images)")->required();
  truth_app->add_option("--kind", truth.kind, "photometric or geometric")
      ->check(CLI::IsMember(kKinds))->capture_default_str();
  auto* model = truth_app->add_option("--model", truth.model_dir,
                                      "COLMAP model the maps come from (OUT/model): scale and cameras");
  auto* gt = truth_app->add_option("--gt", truth.gt_dir, "True cameras NAME.camera (SYNTH/gt_dense_cameras)");
  model->needs(gt);
  gt->needs(model);
  truth_app->add_option("--tolerance", truth.tolerance, "Relative depth error counted accurate")
      ->check(CLI::PositiveNumber)->capture_default_str();
  truth_app->add_option("--texture-std", truth.texture.min_std_dev, "Textured: grey-level std dev at least")
      ->capture_default_str();
  truth_app->add_option("--texture-radius", truth.texture.window_radius_px, "Texture window radius, px")
      ->capture_default_str();
  truth_app->add_option("--json", truth.json_path, "Write the figures as JSON");
  truth_app->add_option("--masks", truth.masks_dir, "Write each image's textured mask (PNG) here");
  truth_app->add_flag("--quiet", truth.quiet, "Print the overall row only");

  CompareArgs compare;
  CLI::App* compare_app = app.add_subcommand("compare", "Two runs' depth maps against each other");
  compare_app->add_option("DIR_A", compare.dir_a, "Depth maps of run A (e.g. GPU)")->required();
  compare_app->add_option("DIR_B", compare.dir_b, "Depth maps of run B (e.g. CPU)")->required();
  compare_app->add_option("--kind", compare.kind, "photometric or geometric")
      ->check(CLI::IsMember(kKinds))->capture_default_str();
  compare_app->add_option("--kind-b", compare.kind_b, "B's kind when it differs")
      ->check(CLI::IsMember(kKinds));
  compare_app->add_option("--tolerance", compare.tolerance, "Relative difference counted as agreeing")
      ->check(CLI::PositiveNumber)->capture_default_str();
  compare_app->add_option("--json", compare.json_path, "Write the figures as JSON");
  compare_app->add_flag("--quiet", compare.quiet, "Print the overall row only");
  return RunBenchSubcommands(app, argc, argv,
                             {{truth_app, [&] { return RunTruth(truth); }},
                              {compare_app, [&] { return RunCompare(compare); }}});
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  return proj::RunBenchmark([&] { return proj::Run(argc, argv); });
}
