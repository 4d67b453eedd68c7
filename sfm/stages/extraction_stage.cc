#include "sfm/stages/extraction_stage.h"

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

#include "core/check.h"
#include "core/interrupt.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "features/image_preprocessing.h"
#include "io/file_stamp.h"
#include "io/image_decode.h"

namespace proj {

void ExtractionOptions::Check() const {
  features.Check();
  gps.Check();
  PROJ_REQUIRE(max_image_size == 0 || max_image_size >= 64,
               "--max-image-size must be 0 (no limit) or at least 64 (got " << max_image_size << ")");
  PROJ_REQUIRE(decode.max_pixels >= 1,
               "--max-image-pixels must be at least 1 (got " << decode.max_pixels << ")");
}

StageOptions ExtractionOptions::Fingerprint() const {
  StageOptions options;
  options.Add("--features", features.type == FeatureType::kSift ? "sift" : "opencv-sift")
      .Add("--max-image-size", max_image_size)
      .Add("--max-features", features.selection.max_features)
      .Add("--upsample", features.selection.upsample)
      .Add("--scale-space", features.scale_space == ScaleSpaceType::kGaussian ? "gaussian" : "trilateral")
      .Add("--edge-test", features.edge_test ? "on" : "off")
      .Add("trilateral sigma", features.trilateral_sigma_c);
  return options;
}

// A file skipped for its size is tried again: this run's --max-image-pixels may allow it.
bool DependsOnPixelLimit(const std::string& reason) {
  return reason.find("--max-image-pixels") != std::string::npos;
}

ImageRecord DecodeAndExtract(const ExtractionOptions& options, FeatureExtractor* extractor,
                             std::mutex* extractor_mutex, const std::string& path) {
  Image image = ReadImageFile(path, nullptr, options.decode);
  ImageRecord record = MakeImageRecord(path, image);
  double scale = 1.0;
  const GrayImage grey = LimitImageSize(ToGrayImage(image), options.max_image_size, &scale);
  if (extractor_mutex != nullptr) {
    std::lock_guard<std::mutex> lock(*extractor_mutex);
    record.features = extractor->Extract(grey);
  } else {
    record.features = extractor->Extract(grey);
  }
  ScaleKeypoints(scale, &record.features);
  return record;
}

ImageFileInfo FileInfoOf(const ImageRecord& record, const FileStamp& stamp) {
  ImageFileInfo info;
  info.file_size = stamp.size;
  info.modification_time_ns = stamp.modification_time_ns;
  info.width = record.width;
  info.height = record.height;
  info.exif_focal_px = record.exif_focal_px;
  info.camera_label = record.camera_label;
  return info;
}

ExtractionResult ExtractFeatures(const ExtractionOptions& options,
                                 const std::vector<std::string>& paths) {
  options.Check();
  auto extractor = CreateFeatureExtractor(options.features);
  ExtractionResult result;
  result.extractor_description = extractor->Description();
  const int count = static_cast<int>(paths.size());
  std::vector<std::optional<ImageRecord>> records(count);
  std::vector<std::string> errors(count);
  std::mutex extractor_mutex;
  std::mutex* serialize = extractor->ConcurrentCalls() <= 1 ? &extractor_mutex : nullptr;
  ParallelFor(0, count, options.num_threads, [&](int i, int) {
    try {
      records[i] = DecodeAndExtract(options, extractor.get(), serialize, paths[i]);
    } catch (const InputError& error) {
      errors[i] = error.what();
    }
  });
  for (int i = 0; i < count; ++i) {
    if (records[i]) {
      result.images.push_back(std::move(*records[i]));
    } else {
      SkipImage(paths[i], errors[i], &result.skipped);
    }
  }
  return result;
}

namespace {

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// Writes finished images to the database in name order, committing every half second.
class OrderedImageWriter {
 public:
  OrderedImageWriter(SceneDatabase* database, CameraAssigner* cameras, const GpsPriorOptions& gps,
                     int count)
      : database_(database), cameras_(cameras), gps_(gps), slots_(count) {}

  // Slot `index` is done: a record to write, or the reason it could not be read.
  void Finish(int index, std::optional<ImageRecord> record, FileStamp stamp, std::string error,
              std::optional<int> existing_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_[index] = Slot{std::move(record), stamp, std::move(error), existing_id, true};
    while (next_ < static_cast<int>(slots_.size()) && slots_[next_].done) {
      Write(&slots_[next_]);
      slots_[next_] = Slot();
      slots_[next_].done = true;
      ++next_;
    }
    if (transaction_ && commit_timer_.ElapsedSeconds() > 0.5) Commit();
  }

  // Commits the images written so far (the rest stay unwritten), e.g. when interrupted.
  void CommitWritten() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (transaction_) Commit();
  }

  void Close() {
    std::lock_guard<std::mutex> lock(mutex_);
    PROJ_CHECK(next_ == static_cast<int>(slots_.size()), "images left unwritten");
    if (transaction_) Commit();
  }

  std::vector<SkippedFile>& skipped() { return skipped_; }
  std::map<std::string, int>& written_ids() { return written_ids_; }

 private:
  struct Slot {
    std::optional<ImageRecord> record;
    FileStamp stamp;
    std::string error;
    std::optional<int> existing_id;
    bool done = false;
  };

  void Write(Slot* slot) {
    if (!transaction_) {
      transaction_ = std::make_unique<SceneDatabase::Transaction>(database_);
      commit_timer_.Restart();
    }
    if (!slot->record) {
      skipped_.push_back({"", slot->error, slot->stamp.size, slot->stamp.modification_time_ns});
      return;
    }
    const ImageRecord& record = *slot->record;
    if (record.features.size() == 0) PROJ_LOG(kWarning, "'" << record.name << "': no features found");
    const ImageFileInfo info = FileInfoOf(record, slot->stamp);
    const int camera_id = cameras_->CameraFor(record.name, info);
    int image_id = 0;
    if (slot->existing_id) {
      image_id = *slot->existing_id;
      database_->SetImageCamera(image_id, camera_id);
    } else {
      image_id = database_->AddImage(record.name, camera_id);
    }
    database_->WriteKeypoints(image_id, record.features.keypoints);
    database_->WriteDescriptors(image_id, record.features.descriptors);
    database_->WriteImageFileInfo(image_id, info);
    WriteGpsPrior(gps_, record.gps, image_id, database_);
    database_->WriteImageCapture(image_id, record.capture);
    written_ids_[record.name] = image_id;
  }

  void Commit() {
    transaction_->Commit();
    transaction_.reset();
  }

  SceneDatabase* database_;
  CameraAssigner* cameras_;
  GpsPriorOptions gps_;
  std::vector<Slot> slots_;
  int next_ = 0;
  std::mutex mutex_;
  std::unique_ptr<SceneDatabase::Transaction> transaction_;
  Timer commit_timer_;
  std::vector<SkippedFile> skipped_;
  std::map<std::string, int> written_ids_;
};

}  // namespace

ExtractionSummary ExtractFolder(const ExtractionOptions& options, const CameraOptions& camera_options,
                                OptionChangePolicy policy, const std::vector<std::string>& paths,
                                SceneDatabase* database, FeatureExtractor* given_extractor) {
  options.Check();
  camera_options.Check();
  ExtractionSummary summary;
  summary.num_files = static_cast<int>(paths.size());

  // Stored features are reused only when they were extracted with these options (none
  // recorded: another program's or a KLT run's keypoints, extracted again).
  const bool reusable = CompareStageOptions(*database, "extraction", options.Fingerprint(), policy) ==
                        StoredStageOptions::kSame;
  if (!reusable) {
    SceneDatabase::Transaction transaction(database);
    database->WriteStageOptions("extraction", options.Fingerprint().ToText());
    database->DeleteStageOptions("klt");
    transaction.Commit();
  }
  std::map<std::string, DatabaseImage> stored_images;
  for (DatabaseImage& image : database->ReadImages()) stored_images.emplace(image.name, std::move(image));
  std::map<std::string, SkippedFile> stored_skipped;
  for (SkippedFile& file : database->ReadSkippedFiles()) stored_skipped.emplace(file.name, std::move(file));

  // Classify the folder's files.
  std::vector<int> to_extract;                   // indices into paths
  std::vector<std::optional<int>> existing_id(paths.size());
  std::vector<FileStamp> stamps(paths.size());
  std::vector<bool> reused(paths.size(), false);
  std::vector<std::optional<SkippedFile>> skipped_before(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string name = FileName(paths[i]);
    stamps[i] = ReadFileStamp(paths[i]);
    auto image = stored_images.find(name);
    if (image != stored_images.end()) {
      existing_id[i] = image->second.image_id;
      const std::optional<ImageFileInfo> info = database->ReadImageFileInfo(image->second.image_id);
      if (reusable && info && info->file_size == stamps[i].size &&
          info->modification_time_ns == stamps[i].modification_time_ns &&
          database->HasKeypoints(image->second.image_id)) {
        reused[i] = true;
        continue;
      }
    }
    auto skipped = stored_skipped.find(name);
    if (skipped != stored_skipped.end() && skipped->second.file_size == stamps[i].size &&
        skipped->second.modification_time_ns == stamps[i].modification_time_ns &&
        !DependsOnPixelLimit(skipped->second.reason)) {
      skipped_before[i] = skipped->second;
      continue;
    }
    to_extract.push_back(static_cast<int>(i));
  }

  // Images whose file left the folder, and images about to be extracted again.
  {
    SceneDatabase::Transaction transaction(database);
    std::map<std::string, bool> in_folder;
    for (const std::string& path : paths) in_folder[FileName(path)] = true;
    for (const auto& [name, image] : stored_images) {
      if (!in_folder.count(name)) {
        database->DeleteImage(image.image_id);
        ++summary.num_removed;
      }
    }
    for (int i : to_extract) {
      if (existing_id[i]) database->DeleteFeatures(*existing_id[i]);
    }
    transaction.Commit();
  }
  if (summary.num_removed > 0) {
    PROJ_LOG(kInfo, "extraction: " << summary.num_removed
                                   << " image(s) no longer in the folder removed from the database");
  }

  // Cameras of the reused images follow the camera options of this run.
  CameraAssigner cameras(camera_options, database);
  {
    SceneDatabase::Transaction transaction(database);
    for (size_t i = 0; i < paths.size(); ++i) {
      if (!reused[i]) continue;
      const ImageFileInfo info = *database->ReadImageFileInfo(*existing_id[i]);
      const int camera_id = cameras.CameraFor(FileName(paths[i]), info);
      database->SetImageCamera(*existing_id[i], camera_id);
    }
    transaction.Commit();
  }

  std::unique_ptr<FeatureExtractor> created;
  FeatureExtractor* extractor = to_extract.empty() ? nullptr : given_extractor;
  if (!to_extract.empty() && extractor == nullptr) {
    created = CreateFeatureExtractor(options.features);
    extractor = created.get();
  }
  summary.extractor_description = extractor ? extractor->Description() : "none needed";
  PROJ_LOG(kInfo, "extraction: " << paths.size() << " files, "
                                 << std::count(reused.begin(), reused.end(), true)
                                 << " unchanged in the database, " << to_extract.size()
                                 << " to extract"
                                 << (extractor ? " with " + extractor->Description() : std::string()));
  OrderedImageWriter writer(database, &cameras, options.gps, static_cast<int>(to_extract.size()));
  if (extractor) {
    std::mutex extractor_mutex;
    std::mutex* serialize = extractor->ConcurrentCalls() <= 1 ? &extractor_mutex : nullptr;
    Progress progress("extracting features", static_cast<int>(to_extract.size()), "images");
    try {
      ParallelFor(0, static_cast<int>(to_extract.size()), options.num_threads, [&](int k, int) {
        ThrowIfInterrupted();  // images not started are abandoned
        const int i = to_extract[k];
        std::optional<ImageRecord> record;
        std::string error;
        try {
          record = DecodeAndExtract(options, extractor, serialize, paths[i]);
        } catch (const InputError& e) {
          error = e.what();
        }
        writer.Finish(k, std::move(record), stamps[i], error, existing_id[i]);
        progress.Advance();
      });
    } catch (const Interrupted&) {
      writer.CommitWritten();  // the images finished in name order are kept
      throw;
    }
  }
  writer.Close();
  summary.num_extracted = static_cast<int>(writer.written_ids().size());

  // Skipped files: those of this run (named in order) and those still unchanged.
  std::vector<SkippedFile> skipped;
  size_t next_new = 0;
  for (size_t k = 0; k < to_extract.size(); ++k) {
    const std::string name = FileName(paths[to_extract[k]]);
    if (writer.written_ids().count(name)) continue;
    SkippedFile file = writer.skipped()[next_new++];
    file.name = name;
    PROJ_LOG(kWarning, "skipping '" << name << "': " << file.reason);
    skipped.push_back(std::move(file));
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!skipped_before[i]) continue;
    PROJ_LOG(kWarning, "skipping '" << skipped_before[i]->name << "' (unchanged since an earlier run): "
                                    << skipped_before[i]->reason);
    skipped.push_back(*skipped_before[i]);
  }
  std::sort(skipped.begin(), skipped.end(),
            [](const SkippedFile& a, const SkippedFile& b) { return a.name < b.name; });
  {
    SceneDatabase::Transaction transaction(database);
    database->WriteSkippedFiles(skipped);
    database->DeleteUnusedCameras();
    transaction.Commit();
  }
  summary.skipped = std::move(skipped);

  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string name = FileName(paths[i]);
    if (reused[i]) {
      summary.image_ids.push_back(*existing_id[i]);
      ++summary.num_reused;
    } else if (writer.written_ids().count(name)) {
      summary.image_ids.push_back(writer.written_ids().at(name));
    }
  }
  summary.num_features = database->NumKeypoints();  // the database now holds the folder's images
  return summary;
}

}  // namespace proj
