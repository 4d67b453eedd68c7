#include "sfm/outputs/report_json.h"

#include <iomanip>

#include "io/atomic_file.h"
#include "io/json_string.h"
#include "mvs/dense_report.h"
#include "mvs/map_products_report.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/outputs/gcp_report.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/outputs/output_writer.h"
#include "sfm/outputs/quality_report.h"

namespace proj {

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
    out << "  \"mapper_reason\": " << JsonString(result.mapper_reason) << ",\n";
    out << "  \"mapping_parts\": " << result.num_mapping_parts << ",\n";
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
    out << "  \"matched_features\": " << stats.num_matched_features << ",\n";
    out << "  \"features_in_tracks\": " << stats.num_features_in_tracks << ",\n";
    out << "  \"refused_track_matches\": " << stats.num_refused_track_matches << ",\n";
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
    // Every model written: the main one, then the other connected components'.
    out << "  \"components\": [";
    if (result.mapper.success) {
      out << "{\"path\": \"model\", \"images\": " << scene.NumRegisteredImages() << ", \"points\": "
          << scene.points.size() << ", \"mean_reprojection_error_px\": " << MeanReprojectionErrorPx(scene)
          << ", \"georeferenced\": " << (IsGeoreferenced(result) ? "true" : "false")
          << ", \"verdict\": " << JsonString(QualityVerdictName(result.quality.verdict)) << "}";
    }
    for (size_t i = 0; i < result.components.size(); ++i) {
      const ComponentModel& component = result.components[i];
      out << ",\n    {\"path\": " << JsonString(ComponentModelPath(i))
          << ", \"images\": " << component.scene.NumRegisteredImages()
          << ", \"points\": " << component.scene.points.size()
          << ", \"mean_reprojection_error_px\": " << MeanReprojectionErrorPx(component.scene)
          << ", \"georeferenced\": " << (IsComponentGeoreferenced(result, component) ? "true" : "false")
          << ", \"verdict\": " << JsonString(QualityVerdictName(component.quality.verdict))
          << ", \"reasons\": " << JsonStrings(component.quality.reasons)
          << ", \"rebuilt_with_gps\": " << (component.rebuilt_with_gps ? "true" : "false") << "}";
    }
    out << "],\n";
    // Models that failed their self-check: not written, their images left unregistered.
    out << "  \"rejected_components\": [";
    for (size_t i = 0; i < result.rejected_components.size(); ++i) {
      const RejectedComponent& rejected = result.rejected_components[i];
      out << (i ? ",\n    " : "") << "{\"images\": " << rejected.image_ids.size()
          << ", \"registered\": " << rejected.num_registered
          << ", \"verdict\": " << JsonString(QualityVerdictName(rejected.quality.verdict))
          << ", \"reasons\": " << JsonStrings(rejected.quality.reasons) << "}";
    }
    out << "],\n";
    out << "  \"mean_reprojection_error_px\": " << MeanReprojectionErrorPx(scene) << ",\n";
    out << "  \"mean_track_length\": " << MeanTrackLength(scene) << ",\n";
    if (result.mapper.success) {
      out << "  \"quality\": ";
      WriteQualityObject(result, "  ", out);
      out << ",\n";
    }
    out << "  \"georeference\": ";
    WriteGeoreferenceObject(result, "  ", out);
    out << ",\n";
    if (result.ground_control) {
      out << "  \"gcp\": ";
      WriteGcpObject(*result.ground_control, "  ", out);
      out << ",\n";
    }
    if (result.dense) {
      out << "  \"dense\": ";
      mvs::WriteDenseSummaryJson(*result.dense, "  ", out);
      out << ",\n";
    }
    if (result.products) {
      out << "  \"products\": ";
      mvs::WriteMapProductsJson(*result.products, "  ", out);
      out << ",\n";
    }
    out << "  \"global_bundle_adjustments\": " << result.mapper.num_global_ba << ",\n";
    out << "  \"local_bundle_adjustments\": " << result.mapper.num_local_ba << "\n";
    out << "}\n";
  });
}

}  // namespace proj
