#include "sfm/app/pipeline_options.h"

#include <map>

namespace proj::app {
namespace {

const std::map<std::string, ComputeDevice> kDeviceNames = {
    {"auto", ComputeDevice::kAuto}, {"cpu", ComputeDevice::kCpu}, {"gpu", ComputeDevice::kGpu}};
const std::map<std::string, FeatureType> kFeatureNames = {
    {"sift", FeatureType::kSift}, {"opencv-sift", FeatureType::kOpenCvSift}};
const std::map<std::string, MatcherChoice> kMatcherNames = {{"exhaustive", MatcherChoice::kExhaustive},
                                                            {"sequential", MatcherChoice::kSequential},
                                                            {"klt", MatcherChoice::kKlt}};
const std::map<std::string, MatcherChoice> kDescriptorMatcherNames = {
    {"exhaustive", MatcherChoice::kExhaustive}, {"sequential", MatcherChoice::kSequential}};
const std::map<std::string, ScaleSpaceType> kScaleSpaceNames = {
    {"gaussian", ScaleSpaceType::kGaussian}, {"trilateral", ScaleSpaceType::kTrilateral}};
const std::map<std::string, bool> kOnOff = {{"on", true}, {"off", false}};
const std::map<std::string, OptionChangePolicy> kPolicyNames = {{"stop", OptionChangePolicy::kStop},
                                                                {"redo", OptionChangePolicy::kRedo}};

}  // namespace

ReconstructionOptions PipelineArgs::Finalize() const {
  ReconstructionOptions resolved = options;
  resolved.extraction.features.edge_test = edge_test;
  resolved.extraction.features.upsample = upsample == "on" ? 1 : upsample == "off" ? 0 : -1;
  resolved.cameras.model = CameraModelFromName(camera_model);
  resolved.pair_selection.mode =
      matcher == MatcherChoice::kSequential ? PairSelection::kSequential : PairSelection::kExhaustive;
  resolved.correspondences = matcher == MatcherChoice::kKlt ? CorrespondenceSource::kKltTracks
                                                            : CorrespondenceSource::kDescriptors;
  resolved.Check();
  return resolved.Resolve();
}

void AddRunOptions(CLI::App& app, PipelineArgs* args) {
  RunOptions& run = args->options.run;
  app.add_option("--device", run.device, "Where extraction, matching and KLT tracking run")
      ->transform(CLI::CheckedTransformer(kDeviceNames, CLI::ignore_case))
      ->default_str("auto");
  app.add_option("--threads", run.num_threads, "CPU threads (0 = all)")->capture_default_str();
  app.add_option("--seed", run.seed, "Random seed (same seed and input, same output)")
      ->capture_default_str();
  app.add_option("--on-option-change", args->options.on_option_change,
                 "When the database holds results computed with other options: stop (with a "
                 "message naming the option) or redo those stages")
      ->transform(CLI::CheckedTransformer(kPolicyNames, CLI::ignore_case))
      ->default_str("stop");
}

void AddDatabaseOption(CLI::App& app, PipelineArgs* args, bool required) {
  auto* option = app.add_option("--database", args->database_path,
                                required ? "Scene database (SQLite, COLMAP's schema)"
                                         : "Scene database (SQLite, COLMAP's schema) [OUT/database.db]; "
                                           "re-running with it reuses every image and pair already done");
  if (required) option->required();
}

void AddExtractionOptions(CLI::App& app, PipelineArgs* args) {
  ReconstructionOptions& o = args->options;
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
  app.add_option("--camera-model", args->camera_model, "PINHOLE, SIMPLE_RADIAL or RADIAL")
      ->capture_default_str();
  app.add_flag("--single-camera", o.cameras.single_camera, "All images share one camera (intrinsics)");
}

void AddMatchingOptions(CLI::App& app, PipelineArgs* args, bool with_klt) {
  ReconstructionOptions& o = args->options;
  if (with_klt) {
    app.add_option("--matcher", args->matcher,
                   "Correspondences: exhaustive (all pairs), sequential (next --overlap images in "
                   "name order), or klt (KLT tracking through the images in name order, for "
                   "video-like sequences)")
        ->transform(CLI::CheckedTransformer(kMatcherNames, CLI::ignore_case))
        ->default_str("exhaustive");
  } else {
    app.add_option("--matcher", args->matcher,
                   "Pairs: exhaustive (all pairs) or sequential (next --overlap images in name order)")
        ->transform(CLI::CheckedTransformer(kDescriptorMatcherNames, CLI::ignore_case))
        ->default_str("exhaustive");
  }
  app.add_option("--overlap", o.pair_selection.overlap, "Sequential matcher: images ahead")
      ->capture_default_str();
  app.add_option("--max-chunk-images", o.max_chunk_images,
                 "Matching and verification hold the features of at most this many images at once")
      ->capture_default_str();
  if (!with_klt) return;
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
}

void AddMapperOptions(CLI::App& app, PipelineArgs* args) {
  app.add_flag("--refine-principal-point", args->options.mapper.refine_principal_point,
               "Refine the principal point in bundle adjustment");
}

}  // namespace proj::app
