#include "sfm/pipeline/output_writer.h"

#include <filesystem>
#include <iomanip>
#include <sstream>
#include <vector>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/json_string.h"
#include "io/ply.h"
#include "sfm/image_source/image_source.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/pipeline/georeferenced_outputs.h"
#include "sfm/pipeline/html_report.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_text.h"

namespace proj {
namespace {

void WritePoints(const Scene& scene, const std::string& path) {
  std::vector<Eigen::Vector3f> positions;
  std::vector<Rgb8> colors;
  positions.reserve(scene.points.size());
  colors.reserve(scene.points.size());
  for (const auto& [id, point] : scene.points) {
    positions.push_back(point.position.cast<float>());
    colors.push_back({point.color[0], point.color[1], point.color[2]});
  }
  WritePointCloudPly(path, positions, colors);
}

void WriteCameras(const Scene& scene, const std::string& path) {
  std::vector<PlyCamera> cameras;
  for (const auto& image : scene.images) {
    if (!image.registered) continue;
    const Camera& camera = scene.cameras[image.camera_id];
    PlyCamera ply;
    const auto pp = camera.PrincipalPoint();
    ply.K << camera.MeanFocal(), 0, pp.x(), 0, camera.MeanFocal(), pp.y(), 0, 0, 1;
    ply.world_from_cam = image.cam_from_world.rotation.conjugate().toRotationMatrix();
    ply.center = image.cam_from_world.Center();
    ply.width = camera.width;
    ply.height = camera.height;
    cameras.push_back(ply);
  }
  WriteCamerasPly(path, cameras);
}

}  // namespace

void WriteReport(const ReconstructionResult& result, const RunDescription& run,
                 const std::string& path) {
  const Scene& scene = result.scene;
  const auto& stats = result.statistics;
  WriteFileAtomically(path, [&](std::ostream& out) {
    out << std::setprecision(6) << "{\n";
    out << "  \"success\": " << (result.mapper.success ? "true" : "false") << ",\n";
    if (!result.mapper.success) {
      out << "  \"failure_reason\": " << JsonString(result.mapper.failure_reason) << ",\n";
    }
    out << "  \"images_dir\": " << JsonString(run.images_dir) << ",\n";
    out << "  \"command_line\": " << JsonString(run.command_line) << ",\n";
    out << "  \"device\": " << JsonString(run.device) << ",\n";
    out << "  \"feature_extractor\": " << JsonString(result.extractor) << ",\n";
    out << "  \"matcher\": " << JsonString(result.matcher) << ",\n";
    out << "  \"mapper\": " << JsonString(result.mapper_name) << ",\n";
    out << "  \"stage_seconds\": {";
    const auto& entries = result.times.entries();
    for (size_t i = 0; i < entries.size(); ++i) {
      out << (i ? ", " : "") << JsonString(entries[i].first) << ": " << entries[i].second;
    }
    out << "},\n";
    out << "  \"input_files\": " << stats.num_input_files << ",\n";
    out << "  \"usable_images\": " << stats.num_usable_images << ",\n";
    out << "  \"images_with_gps\": " << stats.num_gps_priors << ",\n";
    out << "  \"skipped_images\": [";
    for (size_t i = 0; i < result.skipped.size(); ++i) {
      out << (i ? ", " : "") << "{\"name\": " << JsonString(result.skipped[i].name)
          << ", \"reason\": " << JsonString(result.skipped[i].reason) << "}";
    }
    out << "],\n";
    out << "  \"videos\": [";
    for (size_t i = 0; i < result.videos.size(); ++i) {
      const VideoSummary& video = result.videos[i];
      out << (i ? ", " : "") << "{\"name\": " << JsonString(video.name)
          << ", \"codec\": " << JsonString(video.info.codec) << ", \"duration_s\": " << video.info.duration_s << ", \"nominal_fps\": " << video.info.nominal_fps
          << ", \"average_fps\": " << video.info.average_fps
          << ", \"variable_frame_rate\": " << (video.info.variable_frame_rate ? "true" : "false")
          << ", \"rotation_deg_applied\": " << video.info.rotation_deg << ", \"frames\": " << video.num_frames
          << ", \"frames_reused\": " << (video.reused ? "true" : "false")
          << ", \"problem\": " << JsonString(video.problem) << "}";
    }
    out << "],\n";
    out << "  \"video_frames\": [";  // name and time (s from the video's start) of each frame
    for (size_t i = 0; i < result.video_frames.size(); ++i) {
      const VideoFrameRecord& frame = result.video_frames[i];
      out << (i ? ",\n    " : "\n    ") << "{\"name\": " << JsonString(frame.name) << ", \"video\": "
          << JsonString(frame.video) << ", \"time_s\": " << std::setprecision(9) << frame.time_s
          << std::setprecision(6) << "}";
    }
    out << "],\n";
    out << "  \"database\": " << JsonString(result.database_path) << ",\n";
    out << "  \"reused_from_database\": {\"images\": " << stats.num_images_reused
        << ", \"images_extracted\": " << stats.num_images_extracted
        << ", \"images_removed\": " << stats.num_images_removed
        << ", \"pairs_matched_before\": " << stats.num_pairs_match_reused
        << ", \"pairs_matched_now\": " << stats.num_pairs_matched_now
        << ", \"pairs_verified_before\": " << stats.num_pairs_verify_reused
        << ", \"pairs_verified_now\": " << stats.num_pairs_verified_now
        << ", \"klt_tracks_reused\": " << (stats.sequence_reused ? "true" : "false") << "},\n";
    out << "  \"cameras\": " << stats.num_cameras << ",\n";
    out << "  \"features\": " << stats.num_features << ",\n";
    out << "  \"pairs_matched\": " << stats.num_pairs_matched << ",\n";
    out << "  \"pairs_verified\": " << stats.num_pairs_verified << ",\n";
    out << "  \"putative_matches\": " << stats.num_putative_matches << ",\n";
    out << "  \"verified_matches\": " << stats.num_verified_matches << ",\n";
    out << "  \"keyframes\": " << stats.num_keyframes << ",\n";
    out << "  \"keyframe_pairs_matched\": " << stats.num_keyframe_pairs_matched << ",\n";
    out << "  \"keyframe_pairs_verified\": " << stats.num_keyframe_pairs_verified << ",\n";
    out << "  \"parallax_keyframes\": " << stats.num_parallax_keyframes << ",\n";
    out << "  \"loop_pairs_matched\": " << stats.num_loop_pairs << ",\n";
    out << "  \"loop_pairs_verified\": " << stats.num_loop_pairs_verified << ",\n";
    out << "  \"tracks\": " << stats.num_tracks << ",\n";
    out << "  \"registered_images\": " << scene.NumRegisteredImages() << ",\n";
    out << "  \"unregistered_images\": [";
    bool first = true;
    for (const auto& image : scene.images) {
      if (image.registered) continue;
      out << (first ? "" : ", ") << JsonString(image.name);
      first = false;
    }
    out << "],\n";
    out << "  \"points\": " << scene.points.size() << ",\n";
    out << "  \"mean_reprojection_error_px\": " << MeanReprojectionErrorPx(scene) << ",\n";
    out << "  \"mean_track_length\": " << MeanTrackLength(scene) << ",\n";
    out << "  \"georeference\": ";
    WriteGeoreferenceObject(result, "  ", out);
    out << ",\n";
    out << "  \"global_bundle_adjustments\": " << result.mapper.num_global_ba << ",\n";
    out << "  \"local_bundle_adjustments\": " << result.mapper.num_local_ba << "\n";
    out << "}\n";
  });
}

void WriteReconstructionOutputs(const ReconstructionResult& result, const RunDescription& run,
                                const std::string& out_dir) {
  namespace fs = std::filesystem;
  // Every file is written into a staging folder first and the set is moved into place only
  // when all are complete: a full disk or a crash halfway never leaves a partial model.
  const fs::path staging = fs::path(out_dir) / ".outputs.partial";
  std::error_code ignored;
  fs::remove_all(staging, ignored);
  std::vector<std::string> entries = {"model", "points.ply", "cameras.ply", "report.json",
                                      "report.html"};
  // Listed whether written or not: a model that is no longer georeferenced must not keep the
  // georeferenced files of an earlier run.
  const std::vector<std::string>& georeferenced = GeoreferencedOutputNames();
  entries.insert(entries.end(), georeferenced.begin(), georeferenced.end());
  try {
    const std::string model_dir = (staging / "model").string();
    EnsureWritableDirectory(model_dir);
    WriteColmapText(result.scene, model_dir);
    WriteColmapBinary(result.scene, model_dir);
    // Where the images are, for the commands that take the model (sfm undistort). A video
    // given as the input is no folder: only the folder of its picked frames is recorded.
    const ImageSource images({fs::is_directory(run.images_dir, ignored) ? run.images_dir : "", result.frames_dir});
    if (!images.empty()) WriteImageSource(images, model_dir + "/" + kImageSourceFileName);
    WritePoints(result.scene, (staging / "points.ply").string());
    WriteCameras(result.scene, (staging / "cameras.ply").string());
    WriteReport(result, run, (staging / "report.json").string());
    WriteHtmlReport(result, run, (staging / "report.html").string());
    if (IsGeoreferenced(result)) {
      WriteGeoreferenceJson(result, (staging / "georeference.json").string());
      WriteGeoreferencedLas(result, (staging / "points.las").string());
      WriteCamerasCsv(result, (staging / "cameras.csv").string());
    }
  } catch (...) {
    fs::remove_all(staging, ignored);
    throw;
  }
  for (const std::string& entry : entries) {
    std::error_code error;
    fs::remove_all(fs::path(out_dir) / entry, error);
    if (!fs::exists(staging / entry)) continue;  // a georeferenced file of a model without GPS
    fs::rename(staging / entry, fs::path(out_dir) / entry, error);
    PROJ_REQUIRE(!error, "cannot move '" << (staging / entry).string() << "' into '" << out_dir
                                         << "': " << error.message());
  }
  fs::remove_all(staging, ignored);
}

}  // namespace proj
