#include "sfm/stages/sequence_stage.h"

#include <filesystem>
#include <map>

#include "core/check.h"
#include "core/logging.h"
#include "io/file_stamp.h"
#include "sfm/stages/verification_stage.h"

namespace proj {

StageOptions SequenceFingerprint(const ReconstructionOptions& options) {
  const KltOptions& klt = options.klt.klt;
  StageOptions fingerprint;
  fingerprint.Add("--klt-features", klt.max_features)
      .Add("klt quality level", klt.quality_level)
      .Add("klt min distance", klt.min_distance_px)
      .Add("klt window", klt.window_size)
      .Add("klt levels", klt.num_levels)
      .Add("klt max forward-backward", klt.max_forward_backward_px)
      .Add("klt max residual", klt.max_residual)
      .Add("--klt-drift-correction", klt.affine_refinement ? "on" : "off")
      .Add("--klt-max-gap", options.klt.sequence.max_frame_gap)
      .Add("klt all gaps", options.klt.sequence.all_gaps ? "on" : "off")
      .Add("klt min pair matches", options.klt.sequence.min_pair_matches)
      .Add("--max-image-size", options.klt.max_image_size)
      .Add("--klt-keyframe-sift", options.keyframe_sift.enabled ? "on" : "off");
  if (options.keyframe_sift.enabled) {
    const LoopClosureOptions& loops = options.loop_closure;
    fingerprint.Add("--klt-keyframe-interval", options.keyframe_sift.keyframe_interval)
        .Add("--loop-closure", loops.enabled ? "on" : "off")
        .Add("--loop-candidates", loops.enabled ? loops.pairs.num_candidates : 0)
        .Add(options.extraction.Fingerprint());
  }
  fingerprint.Add(VerificationFingerprint(options.two_view)).Add(options.cameras.Fingerprint());
  return fingerprint;
}

namespace {

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// True when the database holds this stage's results for exactly these files.
bool StoredSequenceMatches(const StageOptions& wanted, const std::vector<std::string>& paths,
                           const std::vector<FileStamp>& stamps, OptionChangePolicy policy,
                           SceneDatabase* database) {
  if (CompareStageOptions(*database, "klt", wanted, policy) != StoredStageOptions::kSame) return false;
  std::map<std::string, FileStamp> folder;
  for (size_t i = 0; i < paths.size(); ++i) folder[FileName(paths[i])] = stamps[i];
  size_t known = 0;
  for (const DatabaseImage& image : database->ReadImages()) {
    const auto info = database->ReadImageFileInfo(image.image_id);
    auto file = folder.find(image.name);
    if (!info || file == folder.end() || file->second.size != info->file_size ||
        file->second.modification_time_ns != info->modification_time_ns) {
      return false;
    }
    ++known;
  }
  for (const SkippedFile& skipped : database->ReadSkippedFiles()) {
    auto file = folder.find(skipped.name);
    if (file == folder.end() || file->second.size != skipped.file_size ||
        file->second.modification_time_ns != skipped.modification_time_ns) {
      return false;
    }
    ++known;
  }
  return known == paths.size();
}

}  // namespace

KltStageResult TrackAndVerifyFrames(const ReconstructionOptions& options,
                                    const DecodedSequence& sequence, KltTracker* tracker) {
  return TrackAndVerifyDecodedSequence(options.klt, options.two_view, sequence,
                                       ImageCameras(options.cameras, sequence.images), tracker);
}

ExtractionStageSummary RunSequenceStage(const ReconstructionOptions& options,
                                        const std::vector<std::string>& paths, SceneDatabase* database) {
  ExtractionStageSummary summary;
  InputCounts& statistics = summary.counts;
  const StageOptions wanted = SequenceFingerprint(options);
  std::vector<FileStamp> stamps;
  for (const std::string& path : paths) stamps.push_back(ReadFileStamp(path));
  if (StoredSequenceMatches(wanted, paths, stamps, options.on_option_change, database)) {
    PROJ_LOG(kInfo, "KLT tracks: the folder is unchanged and its tracks are in the database; reusing them");
    statistics.sequence_reused = true;
    summary.extractor = "klt (reused from the database)";
    summary.matcher = "klt tracks";
    summary.skipped = database->ReadSkippedFiles();
    summary.image_ids = ImageIdsInNameOrder(*database);
    statistics.num_images_reused = static_cast<int>(summary.image_ids.size());
    statistics.num_features = database->NumKeypoints();
    return summary;
  }

  PairCounts& pair_statistics = summary.pair_counts.emplace();  // tracking matches and verifies
  const DecodedSequence decoded = DecodeImageSequence(options.klt, paths);
  summary.times.Add("decoding", decoded.decode_seconds);
  PROJ_REQUIRE(decoded.images.size() >= 2,
               "only " << decoded.images.size() << " of " << paths.size()
                       << " files could be read as images; at least two are needed");
  KltStageResult tracked = TrackAndVerifyFrames(options, decoded);
  summary.times.Add("klt_tracking", tracked.tracking_seconds);
  summary.times.Add("geometric_verification", tracked.verification_seconds);
  summary.extractor = "klt: " + tracked.tracker_description;
  summary.matcher = "klt tracks";
  std::vector<ImageRecord> records = std::move(tracked.images);
  std::vector<PairMatches> putative = std::move(tracked.putative_pairs);
  std::vector<TwoViewGeometry> geometries = std::move(tracked.geometries);
  std::vector<int> klt_counts;
  for (const ImageRecord& record : records) klt_counts.push_back(record.features.size());
  if (options.keyframe_sift.enabled) {
    KeyframeSiftSettings settings;
    settings.keyframes = options.keyframe_sift;
    settings.extraction = options.extraction;
    settings.matching = options.matching;
    settings.two_view = options.two_view;
    settings.max_klt_gap = options.klt.sequence.max_frame_gap;
    settings.first_pair_index = putative.size();
    settings.loop_closure = options.loop_closure;
    KeyframeSiftResult keyframes = AddKeyframeSift(settings, ImageCameras(options.cameras, records), &records);
    summary.times.Add("keyframe_extraction", keyframes.extraction_seconds);
    summary.times.Add("keyframe_matching", keyframes.matching_seconds);
    summary.times.Add("keyframe_verification", keyframes.verification_seconds);
    summary.extractor += "; keyframes: " + keyframes.extractor_description;
    summary.matcher += " + keyframe pairs: " + keyframes.matcher_description;
    statistics.num_keyframes = static_cast<int>(keyframes.keyframes.size());
    statistics.num_keyframe_pairs_matched = static_cast<int>(keyframes.putative_pairs.size());
    statistics.num_keyframe_pairs_verified = keyframes.num_verified_pairs;
    for (auto& pair : keyframes.putative_pairs) putative.push_back(std::move(pair));
    for (auto& geometry : keyframes.geometries) geometries.push_back(std::move(geometry));
  }

  // Everything in one transaction: a killed run leaves the previous state.
  Timer timer;
  SceneDatabase::Transaction transaction(database);
  std::map<std::string, FileStamp> stamp_of;
  for (size_t i = 0; i < paths.size(); ++i) stamp_of[FileName(paths[i])] = stamps[i];
  std::map<std::string, int> stored_ids;
  for (const DatabaseImage& image : database->ReadImages()) stored_ids[image.name] = image.image_id;
  std::map<std::string, bool> usable;
  for (const ImageRecord& record : records) usable[record.name] = true;
  for (const auto& [name, id] : stored_ids) {
    if (usable.count(name)) {
      database->DeleteFeatures(id);
    } else {
      database->DeleteImage(id);
    }
  }
  database->DeleteAllMatches();
  CameraAssigner cameras(options.cameras, database);
  std::vector<int> ids;
  for (size_t i = 0; i < records.size(); ++i) {
    const ImageRecord& record = records[i];
    const ImageFileInfo info = FileInfoOf(record, stamp_of.at(record.name));
    const int camera_id = cameras.CameraFor(record.name, info);
    auto stored = stored_ids.find(record.name);
    int id = 0;
    if (stored != stored_ids.end()) {
      id = stored->second;
      database->SetImageCamera(id, camera_id);
    } else {
      id = database->AddImage(record.name, camera_id);
    }
    database->WriteKeypoints(id, record.features.keypoints);
    database->WriteImageFileInfo(id, info);
    database->WriteKltPointCount(id, klt_counts[i]);
    WriteGpsPrior(options.extraction.gps, record.gps, id, database);
    database->WriteImageCapture(id, record.capture);
    ids.push_back(id);
    statistics.num_features += record.features.size();
  }
  for (size_t p = 0; p < putative.size(); ++p) {
    const int id1 = ids[putative[p].pair.image1], id2 = ids[putative[p].pair.image2];
    database->WriteMatches(id1, id2, putative[p].matches);
    database->WriteTwoViewGeometry(id1, id2, geometries[p]);
    pair_statistics.num_putative_matches += putative[p].matches.size();
  }
  std::vector<SkippedFile> skipped;
  for (const SkippedImage& image : decoded.skipped) {
    const FileStamp& stamp = stamp_of.at(image.name);
    skipped.push_back({image.name, image.reason, stamp.size, stamp.modification_time_ns});
  }
  database->WriteSkippedFiles(skipped);
  database->DeleteUnusedCameras();
  for (const char* stage : {"extraction", "matching", "verification"}) database->DeleteStageOptions(stage);
  database->WriteStageOptions("klt", wanted.ToText());
  transaction.Commit();
  summary.times.Add("database_writing", timer.ElapsedSeconds());
  summary.skipped = std::move(skipped);
  statistics.num_images_extracted = static_cast<int>(ids.size());
  pair_statistics.num_pairs_matched_now = static_cast<int>(putative.size());
  pair_statistics.num_pairs_verified_now = static_cast<int>(putative.size());
  summary.image_ids = std::move(ids);
  return summary;
}

}  // namespace proj
