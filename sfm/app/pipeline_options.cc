#include "sfm/app/pipeline_options.h"

namespace proj::app {
namespace {

const EnumNames<FeatureType> kFeatureNames = {{"sift", FeatureType::kSift},
                                              {"opencv-sift", FeatureType::kOpenCvSift}};
const EnumNames<MatcherChoice> kMatcherNames = {{"auto", MatcherChoice::kAuto},
                                                {"exhaustive", MatcherChoice::kExhaustive},
                                                {"sequential", MatcherChoice::kSequential},
                                                {"spatial", MatcherChoice::kSpatial},
                                                {"klt", MatcherChoice::kKlt}};
const EnumNames<MatcherChoice> kDescriptorMatcherNames = {
    {"auto", MatcherChoice::kAuto},
    {"exhaustive", MatcherChoice::kExhaustive},
    {"sequential", MatcherChoice::kSequential},
    {"spatial", MatcherChoice::kSpatial}};
const EnumNames<ScaleSpaceType> kScaleSpaceNames = {{"gaussian", ScaleSpaceType::kGaussian},
                                                    {"trilateral", ScaleSpaceType::kTrilateral}};
const EnumNames<bool> kOnOff = {{"on", true}, {"off", false}};
const EnumNames<std::string> kUpsampleNames = {{"auto", "auto"}, {"on", "on"}, {"off", "off"}};
const EnumNames<std::string> kAltitudeDatumNames = {
    {"auto", "auto"}, {"egm96", "egm96"}, {"ellipsoid", "ellipsoid"}};
// Our camera models under COLMAP's names (PipelineArgs::Finalize maps the name).
const EnumNames<std::string> kCameraModelNames = {
    {"auto", "auto"}, {"PINHOLE", "PINHOLE"}, {"SIMPLE_RADIAL", "SIMPLE_RADIAL"}, {"RADIAL", "RADIAL"}};
const EnumNames<MapperChoice> kMapperNames = {{"incremental", MapperChoice::kIncremental},
                                              {"global", MapperChoice::kGlobal},
                                              {"auto", MapperChoice::kAuto}};
const EnumNames<BaSolverChoice> kBaSolverNames = {{"auto", BaSolverChoice::kAuto},
                                                  {"ceres", BaSolverChoice::kCeres},
                                                  {"cpu", BaSolverChoice::kCpu},
                                                  {"gpu", BaSolverChoice::kGpu}};
const EnumNames<OptionChangePolicy> kPolicyNames = {{"stop", OptionChangePolicy::kStop},
                                                    {"redo", OptionChangePolicy::kRedo}};

}  // namespace

const EnumNames<ComputeDevice>& DeviceNames() {
  static const EnumNames<ComputeDevice> names = {
      {"auto", ComputeDevice::kAuto}, {"cpu", ComputeDevice::kCpu}, {"gpu", ComputeDevice::kGpu}};
  return names;
}

ReconstructionOptions PipelineArgs::Finalize() const {
  ReconstructionOptions resolved = options;
  resolved.run.gpus = ParseGpuSelection(gpus);
  resolved.extraction.features.edge_test = edge_test;
  resolved.extraction.features.selection.upsample =
      upsample == "on" ? 1 : upsample == "off" ? 0 : -1;
  if (camera_model != "auto") resolved.cameras.model = CameraModelFromName(camera_model);
  if (gps_altitude_datum != "auto") {
    resolved.extraction.gps.altitude_datum = VerticalDatumFromKey(gps_altitude_datum);
  }
  switch (matcher) {
    case MatcherChoice::kExhaustive: resolved.pair_selection.mode = PairSelection::kExhaustive; break;
    case MatcherChoice::kSequential: resolved.pair_selection.mode = PairSelection::kSequential; break;
    case MatcherChoice::kSpatial: resolved.pair_selection.mode = PairSelection::kSpatial; break;
    default: resolved.pair_selection.mode = PairSelection::kAuto; break;
  }
  resolved.correspondences = matcher == MatcherChoice::kKlt ? CorrespondenceSource::kKltTracks
                                                            : CorrespondenceSource::kDescriptors;
  resolved.Check();
  return resolved.Resolve();
}

void AddRunOptions(CLI::App& app, PipelineArgs* args) {
  RunOptions& run = args->options.run;
  AddEnumOption(app, "--device", &run.device, DeviceNames(),
                "Where extraction, matching and KLT tracking run; gpu without a usable GPU is "
                "an error");
  app.add_option("--threads", run.num_threads, "CPU threads, 0 = all cores")
      ->capture_default_str();
  app.add_option("--seed", run.seed, "Random seed of RANSAC (same seed and input, same output)")
      ->capture_default_str();
  AddEnumOption(app, "--on-option-change", &args->options.on_option_change, kPolicyNames,
                "When the database holds results computed with other options: stop (with a "
                "message naming the option) or redo those stages");
}

void AddGpusOption(CLI::App& app, PipelineArgs* args) {
  app.add_option("--gpus", args->gpus,
                 "GPUs feature extraction and descriptor matching spread over, one image or block "
                 "of pairs per GPU at a time: all (every visible GPU), N (the first N) or a list "
                 "of device indices (0,2); CUDA_VISIBLE_DEVICES applies first. Same results "
                 "whatever the GPUs; KLT tracking and bundle adjustment use one GPU")
      ->type_name("all|N|LIST")
      ->capture_default_str();
}

void AddDatabaseOption(CLI::App& app, PipelineArgs* args, bool required) {
  auto* option = app.add_option("--database", args->database_path,
                                required ? "Scene database (SQLite, COLMAP's schema)"
                                         : "Scene database (SQLite, COLMAP's schema); re-running "
                                           "with it reuses every image and pair already done");
  if (required) {
    option->required();
  } else {
    option->default_str("OUT/database.db");
  }
}

void AddExtractionOptions(CLI::App& app, PipelineArgs* args) {
  ReconstructionOptions& o = args->options;
  AddEnumOption(app, "--features", &o.extraction.features.type, kFeatureNames,
                "Feature extractor: ours, or OpenCV's as a reference");
  app.add_option("--max-image-size", o.extraction.max_image_size,
                 "Longer image side for feature extraction, px (coordinates are reported in "
                 "original pixels); 0 = full size")
      ->capture_default_str();
  app.add_option("--max-image-pixels", o.extraction.decode.max_pixels,
                 "Images with more pixels (width x height) are skipped before decoding")
      ->capture_default_str();
  app.add_option("--max-features", o.extraction.features.selection.max_features,
                 "Strongest features kept per image")
      ->capture_default_str();
  AddEnumOption(app, "--upsample", &args->upsample, kUpsampleNames,
                "SIFT first octave upsampled 2x; auto: on below 1000 px");
  AddEnumOption(app, "--scale-space", &o.extraction.features.scale_space, kScaleSpaceNames,
                "SIFT scale space: Gaussian, or trilateral (edge-preserving)");
  AddEnumOption(app, "--edge-test", &args->edge_test, kOnOff,
                "SIFT edge-response (principal curvature) test");
  AddEnumOption(app, "--camera-model", &args->camera_model, kCameraModelNames,
                "Camera model (COLMAP's names); auto: RADIAL (k1, k2) for wide lenses, whose "
                "EXIF focal length is wider than 28 mm on 35 mm film (drones, action cameras, "
                "phones), else SIMPLE_RADIAL");
  app.add_flag("--single-camera", o.cameras.single_camera,
               "All images share one camera (intrinsics) [off: images of one size and focal "
               "length share one]");
  AddEnumOption(app, "--gps-altitude-datum", &args->gps_altitude_datum, kAltitudeDatumNames,
                "What the images' GPS altitudes are measured from: auto as each file says "
                "(EXIF GPSAltitudeRef: sea level, i.e. the EGM96 geoid, unless it says "
                "ellipsoid; DJI RTK files: ellipsoid), or egm96 / ellipsoid for all; outputs "
                "give heights in the same datum");
  app.add_option("--video-fps", o.video.frames_per_second,
                 "Videos in the input: frames picked per second of video, by timestamp (0 = every "
                 "frame); needs the ffmpeg program")
      ->capture_default_str();
}

void AddMatchingOptions(CLI::App& app, PipelineArgs* args, bool with_klt) {
  ReconstructionOptions& o = args->options;
  if (with_klt) {
    AddEnumOption(app, "--matcher", &args->matcher, kMatcherNames,
                  "Correspondences: exhaustive (all pairs), sequential (next --overlap images "
                  "in name order), spatial (nearest images by GPS position), auto (spatial "
                  "when most images have GPS, else exhaustive), or klt (KLT tracking through "
                  "the images in name order, for video-like sequences)");
  } else {
    AddEnumOption(app, "--matcher", &args->matcher, kDescriptorMatcherNames,
                  "Pairs: exhaustive (all pairs), sequential (next --overlap images in name "
                  "order), spatial (nearest images by GPS position) or auto (spatial when most "
                  "images have GPS, else exhaustive)");
  }
  app.add_option("--overlap", o.pair_selection.overlap,
                 "Sequential matcher: images ahead each image is matched with")
      ->capture_default_str();
  AddEnumOption(app, "--loop-closure", &o.loop_closure.enabled, kOnOff,
                "Sequential matcher (and --klt-keyframe-sift): also match images far apart in "
                "name order that look alike (bag of visual words of their SIFT features), so "
                "that a path returning to where it passed closes");
  app.add_option("--loop-candidates", o.loop_closure.pairs.num_candidates,
                 "Loop closure: most similar images beyond the --overlap window each querying "
                 "image is matched with (keyframes beyond --klt-max-gap for --klt-keyframe-sift)")
      ->capture_default_str();
  app.add_option("--loop-query-period", o.loop_closure.pairs.query_period,
                 "Loop closure, sequential matcher: every N-th image in name order (and the last) "
                 "queries; every keyframe does with --klt-keyframe-sift")
      ->capture_default_str();
  app.add_option("--spatial-neighbors", o.pair_selection.spatial_neighbors,
                 "Spatial matcher: nearest images (horizontal GPS distance) each image is "
                 "matched with")
      ->capture_default_str();
  app.add_option("--spatial-max-distance-m", o.pair_selection.spatial_max_distance_m,
                 "Spatial matcher: neighbours farther than this are not matched, metres; 0 = "
                 "no limit")
      ->capture_default_str();
  app.add_option("--spatial-overlap", o.pair_selection.spatial_sequential_overlap,
                 "Spatial matcher: images ahead in name order each image is also matched with "
                 "(links images without GPS)")
      ->capture_default_str();
  app.add_option("--max-chunk-images", o.max_chunk_images,
                 "Images whose features matching and verification hold at once")
      ->capture_default_str();
  if (!with_klt) return;
  app.add_option("--klt-features", o.klt.klt.max_features,
                 "KLT: features kept alive per frame")
      ->capture_default_str();
  app.add_option("--klt-max-gap", o.klt.sequence.max_frame_gap,
                 "KLT: pairs link frames up to this many frames apart (powers of two)")
      ->capture_default_str();
  AddEnumOption(app, "--klt-drift-correction", &o.klt.klt.affine_refinement, kOnOff,
                "KLT: refine each tracked position by aligning the window its track began with "
                "under an affine warp, so that errors do not add up along tracks (forward "
                "motion stretches windows); off: frame-to-frame Lucas-Kanade only");
  app.add_flag("--klt-keyframe-sift", o.keyframe_sift.enabled,
               "KLT: add SIFT matches between keyframes, for wide baselines and loop closures: "
               "features as --features, --max-features, ... on the keyframes; every pair of "
               "keyframes more than --klt-max-gap frames apart matched (with --loop-closure on, "
               "each keyframe's --loop-candidates most alike; closer ones are linked by the "
               "tracks) and verified like all pairs [off]");
  app.add_option("--klt-keyframe-interval", o.keyframe_sift.keyframe_interval,
                 "KLT keyframes: every N-th image in name order, and the last (with "
                 "--klt-keyframe-sift), images")
      ->capture_default_str();
}

void AddMapperOptions(CLI::App& app, PipelineArgs* args) {
  AddEnumOption(app, "--mapper", &args->options.mapper_choice, kMapperNames,
                "Mapper: incremental (image by image, COLMAP-like), global (rotation averaging "
                "and global positioning of all cameras at once, then bundle adjustment, "
                "GLOMAP-like), or auto: global when GPS is on at least half the images and the "
                "input is not ordered (sequential matching, KLT), else incremental; a global "
                "model that registers under 90% of the linked images, has a mean reprojection "
                "error over 2 px or fails its GPS check is mapped again incrementally. Measured "
                "(README \"Mappers\"): GPS flights 150 images 17.4 mm global vs 40.1 mm "
                "incremental, 300 images 20.7 vs 22.5 mm, 1,000 images 20.9 vs 31.3 mm in the same time (H200); "
                "Strecha and a real 18-photo drone flight equal; object views without EXIF 1.9 vs "
                "2.5 mm; a street drive equal (56 frames), a shorter one wrong with global");
  app.add_option("--mapper-auto-min-images", args->options.auto_mapper.min_images,
                 "--mapper auto: the global mapper only from this many images on (0: any number)")
      ->capture_default_str();
  AddEnumOption(app, "--all-components", &args->options.components.enabled, kOnOff,
                "Map the images the main model (OUT/model, the largest) leaves out into models of "
                "their own, a new initial pair among them each (other connected components: two "
                "photo sets with nothing in common in one folder), written as OUT/models/1, "
                "OUT/models/2, ... and listed in report.json \"components\"");
  app.add_option("--min-model-size", args->options.components.min_model_size,
                 "--all-components: a model of fewer registered images is not kept")
      ->capture_default_str();
  app.add_option("--max-components", args->options.components.max_components,
                 "--all-components: models in all, the main one included")
      ->capture_default_str();
  PartitionedMappingOptions& parts = args->options.partitioning;
  app.add_option("--partition-max-images", parts.max_part_images,
                 "Partitioned mapping: a view graph of more images than this is cut into overlapping "
                 "parts of about this many (by GPS position, else by the view graph; more, smaller ones "
                 "where that fills every round of --parallel-parts), mapped on their own (several at once) "
                 "and merged by their shared images, then adjusted as a whole; "
                 "0 = never; -1 = automatic: parts of 500 images when there are more than 2,500 (10,000 "
                 "images mapped in 7.4 minutes on one H200; below a few thousand one run of the whole is "
                 "as fast and more accurate)")
      ->capture_default_str();
  app.add_option("--partition-shape-prior", parts.merged.shape_prior_factor,
                 "Partitioned mapping: the merged cameras' centres held through the completion within this "
                 "multiple of the merge's disagreement, e.g. 3 (0: not held, the default). Completed "
                 "freely the merged model is the more accurate (a 200-image flight in 4 parts, PINHOLE: "
                 "16.7 mm against 24.8 mm held; one run 21.2 mm), and more so with lens distortion, which "
                 "the parts hold at zero (k1 = -0.05: 1.6 m against 3.4 m held): bench/RESULTS-mapping.md")
      ->capture_default_str();
  app.add_option("--num-parts", parts.num_parts,
                 "Partitioned mapping in exactly this many parts, whatever the size (0: from "
                 "--partition-max-images)")
      ->capture_default_str();
  app.add_option("--parallel-parts", parts.parallel_parts,
                 "Partitioned mapping: parts mapped at once, each with an equal share of --threads "
                 "(0: one per 4 threads)")
      ->capture_default_str();
  app.add_option("--partition-overlap", parts.partition.overlap_share,
                 "Partitioned mapping: each part grows by this share of its own images, the images "
                 "most strongly matched to it first, so neighbouring parts share images to be merged by")
      ->capture_default_str();
  using PrincipalPoint = IncrementalMapperOptions::PrincipalPoint;
  static const EnumNames<PrincipalPoint> kPrincipalPointNames = {
      {"auto", PrincipalPoint::kAuto}, {"on", PrincipalPoint::kOn}, {"off", PrincipalPoint::kOff}};
  AddEnumOption(app, "--refine-principal-point", &args->options.mapper.principal_point, kPrincipalPointNames,
                "Principal point in bundle adjustment: auto refines it, once the model is built, "
                "for cameras whose views constrain it and keeps it only when plausible; on from "
                "the start; off at the image centre");
  static const EnumNames<KeyframeMode> kKeyframeNames = {
      {"auto", KeyframeMode::kAuto}, {"on", KeyframeMode::kOn}, {"off", KeyframeMode::kOff}};
  AddEnumOption(app, "--keyframes", &args->options.keyframe_mode, kKeyframeNames,
                "Incremental mapper on ordered input (images in name order): start the model and "
                "triangulate from keyframes only, frames that move the camera enough from the "
                "last keyframe (--keyframe-min-parallax-deg); the others (a stop, turning on the "
                "spot) are registered afterwards. auto: on with --matcher klt and sequential");
  app.add_option("--keyframe-min-parallax-deg", args->options.keyframes.min_parallax_deg,
                 "Keyframes: median parallax of the shared tracks against the last keyframe, "
                 "rotation removed, that makes a frame a keyframe, degrees")
      ->capture_default_str();
  app.add_flag("!--no-georeference", args->options.georeference.enabled,
               "Ignore the images' GPS positions: no priors, no georeferenced outputs");
  app.add_option("--gps-sigma-m", args->options.georeference.sigma_m,
                 "Standard deviation of a GPS fix in metres, for every image; 0 = from each "
                 "fix's stored covariance, else 3 m")
      ->capture_default_str();
  app.add_option("--gps-focal-sigma", args->options.mapper.priors.focal_prior_relative_sigma,
                 "Once georeferenced, EXIF focal lengths are held within this fraction "
                 "(standard deviation); 0 = no focal prior")
      ->capture_default_str();
  app.add_option("--gps-max-error-m", args->options.mapper.priors.max_error_m,
                 "GPS fixes farther than this from the model aligned to GPS are outliers, "
                 "metres")
      ->capture_default_str();
  AddEnumOption(app, "--dome-correction", &args->options.mapper.correct_dome, kOnOff,
                "After the final adjustment, a block whose GPS fixes show a dome (its edges too low or "
                "too high against its centre, beyond 4 standard errors) is flattened by them and its "
                "lens distortion refitted and held: photos all taken straight down cannot tell distortion "
                "from such a bend (200-image flight through a lens with k1 = -0.05: 1.6 m median error "
                "without it). report.json quality \"dome\" gives the bend before and after");
  app.add_flag("!--no-gps-rebuild", args->options.rebuild_with_gps,
               "Keep a model that disagrees with its GPS fixes as it is, instead of mapping once "
               "more with the GPS as a constraint from the start");
  app.add_flag("--accept-suspect-model", args->accept_suspect_model,
               "Exit 0 with a model that failed its quality checks (most GPS fixes far from their "
               "cameras, a degenerate georeference, many fixes rejected, strong image pairs contradicted; "
               "report.json \"quality\"), "
               "instead of exit code 3");
  GroundControlOptions& gcp = args->options.ground_control;
  app.add_option("--gcp", gcp.gcp_path,
                 "Ground control points, OpenDroneMap's gcp_list.txt: the first line the CRS "
                 "(EPSG:32632, a PROJ string, or WGS84 UTM 32N), then one mark a line: geo_x "
                 "geo_y geo_z im_x im_y image_name [gcp_name]. The model is aligned to them and "
                 "adjusted with each held to its position (GPS positions then only get residuals); "
                 "report.json's \"gcp\" gives each point's residual")
      ->check(CLI::ExistingFile);
  app.add_option("--gcp-check", gcp.check_names,
                 "Names of GCPs left out of the adjustment as check points (comma-separated): "
                 "their residuals measure the model's accuracy")
      ->delimiter(',');
  app.add_option_function<std::vector<double>>(
         "--gcp-sigma-m",
         [&gcp](const std::vector<double>& sigma) {
           gcp.sigma_horizontal_m = sigma.front();
           gcp.sigma_vertical_m = sigma.back();
         },
         "Standard deviation of a control point's surveyed position, metres: one value for "
         "all axes or 'HORIZONTAL VERTICAL' (default 0.02 0.02, an RTK survey)")
      ->expected(1, 2);
  AddEnumOption(app, "--ba-solver", &args->options.ba_solver, kBaSolverNames,
                "Bundle adjustment solver: gpu or cpu is our Levenberg-Marquardt with Schur "
                "complement and PCG on that device (cpu: exact dense steps up to 100 images; "
                "deterministic: same input, same model), "
                "ceres is Ceres (the reference); auto is gpu when --device resolves to a GPU, "
                "else cpu");
  app.add_flag_callback(
      "--gpu-bundle-adjustment", [args] { args->options.ba_solver = BaSolverChoice::kGpu; },
      "Same as --ba-solver gpu (kept for older scripts)");
}

}  // namespace proj::app
