#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"
#include "cuda/device.h"
#include "io/atomic_file.h"
#include "sfm/app/commands.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/pipeline/output_writer.h"
#include "sfm/pipeline/reconstruction_pipeline.h"

namespace proj::app {
namespace {

enum class MatcherChoice { kExhaustive, kSequential, kKlt };

struct ReconstructArgs {
  std::string images_dir;
  std::string out_dir;
  ComputeDevice device = ComputeDevice::kAuto;
  std::string camera_model = "SIMPLE_RADIAL";
  std::string upsample = "auto";
  bool edge_test = true;
  int num_threads = 0;
  MatcherChoice matcher = MatcherChoice::kExhaustive;
  ReconstructionOptions options;
};

const std::map<std::string, ComputeDevice> kDeviceNames = {
    {"auto", ComputeDevice::kAuto}, {"cpu", ComputeDevice::kCpu}, {"gpu", ComputeDevice::kGpu}};
const std::map<std::string, FeatureType> kFeatureNames = {
    {"sift", FeatureType::kSift}, {"opencv-sift", FeatureType::kOpenCvSift}};
const std::map<std::string, MatcherChoice> kMatcherNames = {{"exhaustive", MatcherChoice::kExhaustive},
                                                            {"sequential", MatcherChoice::kSequential},
                                                            {"klt", MatcherChoice::kKlt}};
const std::map<std::string, ScaleSpaceType> kScaleSpaceNames = {
    {"gaussian", ScaleSpaceType::kGaussian}, {"trilateral", ScaleSpaceType::kTrilateral}};
const std::map<std::string, bool> kOnOff = {{"on", true}, {"off", false}};

std::string DeviceSummary(ComputeDevice device) {
  const bool gpu = device == ComputeDevice::kGpu ||
                   (device == ComputeDevice::kAuto && cuda::DeviceAvailable());
  return gpu ? "gpu: " + cuda::DeviceDescription() : "cpu";
}

int Run(ReconstructArgs& args, const std::string& command_line) {
  ReconstructionOptions& options = args.options;
  options.extraction.features.device = args.device;
  options.matching.device = args.device;
  options.extraction.features.num_threads = args.num_threads;
  options.extraction.features.edge_test = args.edge_test;
  options.extraction.features.upsample = args.upsample == "on" ? 1 : args.upsample == "off" ? 0 : -1;
  options.extraction.num_threads = args.num_threads;
  options.matching.num_threads = args.num_threads;
  options.mapper.num_threads = args.num_threads;
  options.camera_model = CameraModelFromName(args.camera_model);
  options.pair_selection.mode =
      args.matcher == MatcherChoice::kSequential ? PairSelection::kSequential : PairSelection::kExhaustive;
  if (args.matcher == MatcherChoice::kKlt) {
    options.correspondences = CorrespondenceSource::kKltTracks;
    options.klt.sequence.device = args.device;
    options.klt.max_image_size = options.extraction.max_image_size;
    options.klt.num_threads = args.num_threads;
  }
  options.Check();
  EnsureWritableDirectory(args.out_dir);  // fail before hours of work, not after

  RunDescription run{args.images_dir, DeviceSummary(args.device), command_line};
  PROJ_LOG(kInfo, "device: " << run.device);
  const ReconstructionResult result = ReconstructFolder(options, args.images_dir);
  if (!result.mapper.success) {
    WriteReport(result, run, args.out_dir + "/report.json");
    PROJ_LOG(kError, "no model could be built: " << result.mapper.failure_reason);
    return kExitNoModel;
  }
  WriteReconstructionOutputs(result, run, args.out_dir);

  const Scene& scene = result.scene;
  std::ostringstream summary;
  summary << "registered " << scene.NumRegisteredImages() << "/" << scene.images.size()
          << " images";
  if (!result.skipped.empty()) summary << " (" << result.skipped.size() << " files skipped)";
  summary << ", " << scene.points.size() << " points, mean reprojection error "
          << MeanReprojectionErrorPx(scene) << " px, mean track length " << MeanTrackLength(scene)
          << "\ntimes:";
  for (const auto& [stage, seconds] : result.times.entries()) {
    summary << " " << stage << " " << seconds << " s;";
  }
  summary << "\noutput: " << args.out_dir << "/points.ply, cameras.ply, model/, report.json";
  std::cout << summary.str() << std::endl;
  for (const auto& image : scene.images) {
    if (!image.registered) PROJ_LOG(kWarning, "not registered: '" << image.name << "'");
  }
  return kExitSuccess;
}

}  // namespace

CommandRunner AddReconstructCommand(CLI::App& app) {
  auto args = std::make_shared<ReconstructArgs>();
  ReconstructionOptions& o = args->options;
  app.add_option("IMAGES_DIR", args->images_dir, "Folder of photos (.jpg, .jpeg, .png)")->required();
  app.add_option("-o,--output", args->out_dir, "Output folder (created if missing)")->required();
  app.add_option("--device", args->device, "Where features and matching run")
      ->transform(CLI::CheckedTransformer(kDeviceNames, CLI::ignore_case))
      ->default_str("auto");
  app.add_option("--features", o.extraction.features.type, "Feature extractor")
      ->transform(CLI::CheckedTransformer(kFeatureNames, CLI::ignore_case))
      ->default_str("sift");
  app.add_option("--max-image-size", o.extraction.max_image_size,
                 "Longer image side for feature extraction, px (coordinates are reported in "
                 "original pixels); 0 = full size")
      ->capture_default_str();
  app.add_option("--max-features", o.extraction.features.max_features,
                 "Strongest features kept per image")
      ->capture_default_str();
  app.add_option("--upsample", args->upsample,
                 "SIFT upsampled first octave: auto (on below 1000 px), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  app.add_option("--scale-space", o.extraction.features.scale_space,
                 "SIFT scale space: gaussian, or trilateral (edge-preserving)")
      ->transform(CLI::CheckedTransformer(kScaleSpaceNames, CLI::ignore_case))
      ->default_str("gaussian");
  app.add_option("--edge-test", args->edge_test, "SIFT edge-response test: on or off")
      ->transform(CLI::CheckedTransformer(kOnOff, CLI::ignore_case))
      ->default_str("on");
  app.add_option("--matcher", args->matcher,
                 "Correspondences: exhaustive (all pairs), sequential (next --overlap images in "
                 "name order), or klt (KLT tracking through the images in name order, for "
                 "video-like sequences)")
      ->transform(CLI::CheckedTransformer(kMatcherNames, CLI::ignore_case))
      ->default_str("exhaustive");
  app.add_option("--overlap", o.pair_selection.overlap, "Sequential matcher: images ahead")
      ->capture_default_str();
  app.add_option("--klt-features", o.klt.klt.max_features, "KLT: features kept alive per frame")
      ->capture_default_str();
  app.add_option("--klt-max-gap", o.klt.sequence.max_frame_gap,
                 "KLT: pairs link frames up to this far apart (powers of two)")
      ->capture_default_str();
  app.add_flag("--klt-keyframe-sift", o.keyframe_sift.enabled,
               "KLT: add SIFT matches between keyframes, for wide baselines and loop closures: "
               "features as --features, --max-features, ... on the keyframes; every pair of "
               "keyframes more than --klt-max-gap frames apart matched (closer ones are linked "
               "by the tracks) and verified like all pairs");
  app.add_option("--klt-keyframe-interval", o.keyframe_sift.keyframe_interval,
                 "KLT keyframes: every N-th image in name order, and the last (with "
                 "--klt-keyframe-sift)")
      ->capture_default_str();
  app.add_option("--camera-model", args->camera_model, "PINHOLE, SIMPLE_RADIAL or RADIAL")
      ->capture_default_str();
  app.add_flag("--single-camera", o.single_camera, "All images share one camera (intrinsics)");
  app.add_flag("--refine-principal-point", o.mapper.refine_principal_point,
               "Refine the principal point in bundle adjustment");
  app.add_option("--threads", args->num_threads, "CPU threads (0 = all)")->capture_default_str();
  app.add_option("--seed", o.mapper.seed, "Random seed (same seed and input, same output)")
      ->capture_default_str();
  return [args, &app]() {
    std::string command_line = "sfm reconstruct " + args->images_dir + " -o " + args->out_dir;
    (void)app;
    args->options.two_view.seed = args->options.mapper.seed;
    return Run(*args, command_line);
  };
}

}  // namespace proj::app
