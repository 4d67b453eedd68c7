#include "sfm/stages/database_merge.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/check.h"
#include "core/logging.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/gps_priors.h"
#include "sfm/stages/input_stage.h"
#include "sfm/stages/shard.h"

namespace proj {
namespace {

namespace fs = std::filesystem;

// The stages whose stored options travel with their results.
const char* const kMergedStages[] = {"extraction", "matching", "verification"};

struct Input {
  std::unique_ptr<SceneDatabase> database;
  std::optional<ShardRecord> shard;
  std::map<int, DatabaseCamera> cameras;  // by id
  const std::string& path() const { return database->path(); }
};

struct ImageSource {
  size_t input = 0;
  int image_id = 0;
  bool has_features = false;
};

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// Every shard complete; per kind, shards 0..N-1 of one N, each once, made with one set of
// options.
void CheckShards(const std::vector<Input>& inputs) {
  for (const ShardKind kind : {ShardKind::kExtraction, ShardKind::kMatching}) {
    const Input* first = nullptr;
    std::vector<const Input*> of_index;
    for (const Input& input : inputs) {
      if (!input.shard || input.shard->kind != kind) continue;
      const ShardRecord& record = *input.shard;
      const std::string what = std::string(ShardKindName(kind)) + " shard " + record.shard.Name();
      PROJ_REQUIRE(record.complete, Quoted(input.path()) << " holds " << what
                                        << ", whose task did not finish (stopped or failed): run "
                                           "it again, it resumes from its database, then merge");
      if (first == nullptr) {
        first = &input;
        of_index.assign(record.shard.count, nullptr);
      }
      const ShardRecord& reference = *first->shard;
      PROJ_REQUIRE(record.shard.count == reference.shard.count,
                   Quoted(input.path()) << " holds " << what << " and " << Quoted(first->path())
                                        << " shard " << reference.shard.Name()
                                        << ": the shards of one run are split the same way");
      const std::optional<std::string> difference = record.options.DifferenceFrom(reference.options);
      PROJ_REQUIRE(!difference, Quoted(input.path()) << " (" << what << ") was made with other options than "
                                                     << Quoted(first->path()) << ": " << *difference);
      const Input*& slot = of_index[record.shard.index];
      PROJ_REQUIRE(slot == nullptr, Quoted(slot->path()) << " and " << Quoted(input.path())
                                                         << " both hold " << what);
      slot = &input;
    }
    for (size_t i = 0; i < of_index.size(); ++i) {
      PROJ_REQUIRE(of_index[i] != nullptr, ShardKindName(kind) << " shard " << i << "/" << of_index.size()
                                                               << " is missing: merge all shards of the run");
    }
  }
}

// The options of each stage, which every input that has them must share.
std::map<std::string, std::string> AgreedStageOptions(const std::vector<Input>& inputs) {
  std::map<std::string, std::string> agreed;
  std::map<std::string, std::string> first_path;
  for (const Input& input : inputs) {
    PROJ_REQUIRE(!input.database->ReadStageOptions("klt"),
                 Quoted(input.path()) << " holds KLT tracks, which follow one sequence of images "
                                         "and cannot be merged with other databases");
    for (const char* stage : kMergedStages) {
      const std::optional<std::string> text = input.database->ReadStageOptions(stage);
      if (!text) continue;
      if (!agreed.count(stage)) {
        agreed[stage] = *text;
        first_path[stage] = input.path();
        continue;
      }
      const std::optional<std::string> difference =
          StageOptions::FromText(*text).DifferenceFrom(StageOptions::FromText(agreed[stage]));
      PROJ_REQUIRE(!difference, Quoted(input.path())
                                    << " holds " << stage << " results computed with other options than "
                                    << Quoted(first_path[stage]) << " (" << *difference
                                    << "); merge databases made with the same options");
    }
  }
  return agreed;
}

bool SameKeypoints(const std::vector<Keypoint>& a, const std::vector<Keypoint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].scale != b[i].scale ||
        a[i].orientation != b[i].orientation) {
      return false;
    }
  }
  return true;
}

bool SameMatches(const std::vector<FeatureMatch>& a, const std::vector<FeatureMatch>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].index1 != b[i].index1 || a[i].index2 != b[i].index2) return false;
  }
  return true;
}

// Throws unless the image named `name` has the same content in `a` and `b` (where both have it).
void RequireSameImage(const std::vector<Input>& inputs, const std::string& name, const ImageSource& a,
                      const ImageSource& b, int camera_a, int camera_b) {
  const SceneDatabase& db_a = *inputs[a.input].database;
  const SceneDatabase& db_b = *inputs[b.input].database;
  std::string difference;
  const DatabaseCamera& ca = inputs[a.input].cameras.at(camera_a);
  const DatabaseCamera& cb = inputs[b.input].cameras.at(camera_b);
  if (!SameCamera(ca.camera, cb.camera) || ca.prior_focal_length != cb.prior_focal_length) {
    difference = "cameras";
  }
  const std::optional<ImageFileInfo> info_a = db_a.ReadImageFileInfo(a.image_id);
  const std::optional<ImageFileInfo> info_b = db_b.ReadImageFileInfo(b.image_id);
  if (difference.empty() && info_a && info_b &&
      (info_a->file_size != info_b->file_size ||
       info_a->modification_time_ns != info_b->modification_time_ns)) {
    difference = "files (size or modification time)";
  }
  if (difference.empty() && a.has_features && b.has_features &&
      (!SameKeypoints(db_a.ReadKeypoints(a.image_id), db_b.ReadKeypoints(b.image_id)) ||
       db_a.ReadDescriptors(a.image_id) != db_b.ReadDescriptors(b.image_id))) {
    difference = "features";
  }
  PROJ_REQUIRE(difference.empty(), "image '" << name << "' is in " << Quoted(db_a.path()) << " and "
                                             << Quoted(db_b.path()) << " with different content: their "
                                             << difference << " differ");
}

// Writes the image from `source` as the next image of `output`, with its camera (an equal one
// already written is shared). Returns the new id.
int CopyImage(const std::vector<Input>& inputs, const std::string& name, const ImageSource& source,
              int camera_id, std::vector<DatabaseCamera>* written_cameras, SceneDatabase* output) {
  const SceneDatabase& from = *inputs[source.input].database;
  const DatabaseCamera& camera = inputs[source.input].cameras.at(camera_id);
  int new_camera_id = 0;
  for (const DatabaseCamera& written : *written_cameras) {
    if (SameCamera(written.camera, camera.camera) && written.prior_focal_length == camera.prior_focal_length) {
      new_camera_id = written.camera_id;
    }
  }
  if (new_camera_id == 0) {
    new_camera_id = output->AddCamera(camera.camera, camera.prior_focal_length);
    written_cameras->push_back({new_camera_id, camera.camera, camera.prior_focal_length});
  }
  const int id = output->AddImage(name, new_camera_id);
  output->CopyFeatures(from, source.image_id, id);
  if (const std::optional<ImageFileInfo> info = from.ReadImageFileInfo(source.image_id)) {
    output->WriteImageFileInfo(id, *info);
  }
  if (const std::optional<PosePrior> prior = from.ReadPosePrior(source.image_id)) {
    output->WritePosePrior(id, *prior);
  }
  const ImageCapture capture = from.ReadImageCapture(source.image_id);
  if (capture.time_s || capture.altitude_datum) output->WriteImageCapture(id, capture);
  return id;
}

// The matches and geometries of every input under the new image ids; a pair in two inputs
// must have the same matches (and geometry). Rows are copied as stored where the ids keep
// their order (always, from databases numbered in name order).
void CopyPairs(const std::vector<Input>& inputs, const std::vector<std::map<int, int>>& new_ids,
               SceneDatabase* output) {
  const auto new_id = [&](size_t input, int image_id) {
    const auto found = new_ids[input].find(image_id);
    PROJ_REQUIRE(found != new_ids[input].end(), Quoted(inputs[input].path())
                                                    << " has matches of image " << image_id
                                                    << ", which it does not hold");
    return found->second;
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    const SceneDatabase& from = *inputs[i].database;
    std::set<int64_t> pair_ids;
    for (const int64_t pair_id : from.ReadMatchedPairIds()) pair_ids.insert(pair_id);
    for (const int64_t pair_id : from.ReadVerifiedPairIds()) pair_ids.insert(pair_id);
    for (const int64_t pair_id : pair_ids) {
      const auto [a, b] = ImageIdsFromPairId(pair_id);
      const int new_a = new_id(i, a), new_b = new_id(i, b);
      const std::optional<std::vector<FeatureMatch>> matches = from.ReadMatches(a, b);
      const std::optional<TwoViewGeometry> geometry = from.ReadTwoViewGeometry(a, b);
      const std::optional<std::vector<FeatureMatch>> merged_matches = output->ReadMatches(new_a, new_b);
      const std::optional<TwoViewGeometry> merged_geometry = output->ReadTwoViewGeometry(new_a, new_b);
      if (merged_matches || merged_geometry) {
        const bool same = (!matches || !merged_matches || SameMatches(*matches, *merged_matches)) &&
                          (!geometry || !merged_geometry ||
                           (geometry->configuration == merged_geometry->configuration &&
                            SameMatches(geometry->inlier_matches, merged_geometry->inlier_matches)));
        PROJ_REQUIRE(same, "the pair of images " << new_a << " and " << new_b << " (merged ids) has other "
                                                 << "matches or geometry in " << Quoted(from.path())
                                                 << " than in an input merged before it");
        continue;
      }
      if (new_a < new_b) {
        output->CopyPair(from, a, b, new_a, new_b);
      } else {  // renumbering swapped the pair: written the other way round
        if (matches) output->WriteMatches(new_a, new_b, *matches);
        if (geometry) output->WriteTwoViewGeometry(new_a, new_b, *geometry);
      }
    }
  }
}

bool SameEnuFrame(const EnuFrame& a, const EnuFrame& b) {
  return a.ref_latitude_deg == b.ref_latitude_deg && a.ref_longitude_deg == b.ref_longitude_deg &&
         a.ref_altitude_m == b.ref_altitude_m && a.heights == b.heights &&
         a.output_heights == b.output_heights && a.fixes_datum == b.fixes_datum;
}

// The ENU frame the inputs share (nullopt when none has one).
std::optional<EnuFrame> AgreedEnuFrame(const std::vector<Input>& inputs) {
  std::optional<EnuFrame> agreed;
  const Input* first = nullptr;
  for (const Input& input : inputs) {
    const std::optional<EnuFrame> frame = input.database->ReadEnuFrame();
    if (!frame) continue;
    if (!agreed) {
      agreed = frame;
      first = &input;
      continue;
    }
    PROJ_REQUIRE(SameEnuFrame(*agreed, *frame), Quoted(input.path())
                                                    << " and " << Quoted(first->path())
                                                    << " place their GPS priors in different ENU frames: "
                                                       "they are not from one run");
  }
  return agreed;
}

void ReplaceFile(const std::string& from, const std::string& to) {
  std::error_code error;
  fs::rename(from, to, error);
  PROJ_REQUIRE(!error, "cannot rename " << Quoted(from) << " to " << Quoted(to) << ": " << error.message());
}

void RemoveIfPresent(const std::string& path) {
  std::error_code error;
  fs::remove(path, error);
  PROJ_REQUIRE(!error, "cannot remove " << Quoted(path) << ": " << error.message());
}

}  // namespace

MergeSummary MergeSceneDatabases(const std::vector<std::string>& paths, const std::string& output) {
  PROJ_REQUIRE(!paths.empty(), "merge-databases: no input database given");
  std::vector<Input> inputs;
  for (const std::string& path : paths) {
    std::error_code error;
    PROJ_REQUIRE(!fs::equivalent(path, output, error),
                 "the output " << Quoted(output) << " is also an input; write the merge to another file");
    Input input;
    input.database = std::make_unique<SceneDatabase>(path, SceneDatabase::Mode::kReadOnly);
    input.shard = ReadShardRecord(*input.database);
    for (DatabaseCamera& camera : input.database->ReadCameras()) input.cameras[camera.camera_id] = camera;
    inputs.push_back(std::move(input));
  }
  CheckShards(inputs);
  const std::map<std::string, std::string> stage_options = AgreedStageOptions(inputs);
  MergeSummary summary;
  const Input* extraction_shard = nullptr;
  for (const Input& input : inputs) {
    if (!input.shard) continue;
    ++summary.num_shards;
    if (input.shard->kind == ShardKind::kExtraction) extraction_shard = &input;
  }
  const std::optional<EnuFrame> enu_frame = extraction_shard ? std::nullopt : AgreedEnuFrame(inputs);

  // Each image from an input that has its features (the first), checked against the others.
  std::map<std::string, std::vector<ImageSource>> sources;  // by name: name order
  std::map<std::pair<size_t, int>, int> camera_of;          // (input, image id) -> camera id
  std::map<std::string, SkippedFile> skipped;
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (const DatabaseImage& image : inputs[i].database->ReadImages()) {
      sources[image.name].push_back({i, image.image_id, inputs[i].database->HasKeypoints(image.image_id)});
      camera_of[{i, image.image_id}] = image.camera_id;
    }
    for (SkippedFile& file : inputs[i].database->ReadSkippedFiles()) skipped.emplace(file.name, std::move(file));
  }

  const std::string temporary = output + ".merging";
  RemoveIfPresent(temporary);  // left by a merge killed before
  RemoveIfPresent(temporary + "-journal");
  try {
    SceneDatabase merged(temporary, SceneDatabase::Mode::kReadWrite);
    std::vector<std::map<int, int>> new_ids(inputs.size());
    {
      SceneDatabase::Transaction transaction(&merged);
      std::vector<DatabaseCamera> cameras;
      for (auto& [name, list] : sources) {
        size_t chosen = 0;
        while (chosen + 1 < list.size() && !list[chosen].has_features) ++chosen;
        const ImageSource& source = list[chosen];
        const int camera_id = camera_of.at({source.input, source.image_id});
        for (const ImageSource& other : list) {
          if (&other != &source) {
            RequireSameImage(inputs, name, source, other, camera_id, camera_of.at({other.input, other.image_id}));
          }
        }
        const int id = CopyImage(inputs, name, source, camera_id, &cameras, &merged);
        for (const ImageSource& other : list) new_ids[other.input][other.image_id] = id;
      }
      CopyPairs(inputs, new_ids, &merged);
      std::vector<SkippedFile> skipped_files;
      for (auto& entry : skipped) {
        if (!sources.count(entry.first)) skipped_files.push_back(std::move(entry.second));
      }
      merged.WriteSkippedFiles(skipped_files);
      for (const auto& [stage, text] : stage_options) merged.WriteStageOptions(stage, text);
      if (enu_frame) merged.WriteEnuFrame(*enu_frame);
      transaction.Commit();
      summary.num_cameras = static_cast<int>(cameras.size());
    }
    if (extraction_shard) {
      // The review a single run does at the end of extraction, over the whole flight.
      GpsPriorOptions gps;
      gps.altitude_datum = ShardAltitudeDatum(extraction_shard->shard->options);
      ReviewGpsPriors(gps, ImageIdsInNameOrder(merged), &merged);
      summary.gps_reviewed = true;
    }
    summary.num_images = merged.NumImages();
    summary.num_matched_pairs = static_cast<int>(merged.ReadMatchedPairIds().size());
    summary.num_verified_pairs = static_cast<int>(merged.ReadVerifiedPairIds().size());
  } catch (...) {
    std::error_code ignored;  // the refusal or error is what the caller needs to hear
    fs::remove(temporary, ignored);
    fs::remove(temporary + "-journal", ignored);
    throw;
  }
  ReplaceFile(temporary, output);
  PROJ_LOG(kInfo, "merged " << inputs.size() << " databases into '" << output << "': " << summary.num_images
                            << " images, " << summary.num_matched_pairs << " matched pairs");
  return summary;
}

}  // namespace proj
