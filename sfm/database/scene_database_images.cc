// SceneDatabase: cameras, images, pose priors and our per-image and per-stage tables.
#include "sfm/database/scene_database.h"

#include <algorithm>

#include <Eigen/Core>

#include "core/check.h"
#include "geometry/camera/colmap_camera_models.h"
#include "sfm/database/scene_database_statements.h"

namespace proj {
namespace {

using internal::AtomicWrite;
using internal::RowOrigin;
using internal::StatementUse;

void BindCamera(const Camera& camera, bool prior_focal_length, const std::string& path,
                internal::SqliteStatement* statement) {
  const std::string subject = internal::DatabaseSubject(path);
  PROJ_REQUIRE(static_cast<int>(camera.params.size()) == CameraModelNumParams(camera.model),
               "cannot write a camera to " << subject << ": a " << CameraModelName(camera.model)
                                           << " camera needs " << CameraModelNumParams(camera.model)
                                           << " parameters, not " << camera.params.size());
  PROJ_REQUIRE(camera.width > 0 && camera.height > 0,
               "cannot write a camera to " << subject << ": its image size must be positive, not "
                                           << camera.width << " x " << camera.height);
  statement->BindInt64(1, ColmapCameraModelId(camera.model));
  statement->BindInt64(2, camera.width);
  statement->BindInt64(3, camera.height);
  statement->BindBlob(4, camera.params.data(), camera.params.size() * sizeof(double));
  statement->BindInt64(5, prior_focal_length ? 1 : 0);
}

DatabaseImage ImageFromRow(const internal::SqliteStatement& row) {
  DatabaseImage image;
  image.image_id = static_cast<int>(row.ColumnInt64(0));
  image.name = row.ColumnText(1);
  image.camera_id = static_cast<int>(row.ColumnInt64(2));
  return image;
}

bool RowExists(internal::SqliteStatement* statement, int64_t id, const char* action) {
  StatementUse use(statement);
  use->BindInt64(1, id);
  return use->Step(action);
}

}  // namespace

int SceneDatabase::AddCamera(const Camera& camera, bool prior_focal_length) {
  RequireWritable("add a camera");
  internal::SqliteStatement& insert = statements_->write->insert_camera;
  BindCamera(camera, prior_focal_length, path_, &insert);
  insert.Run("add a camera");
  return static_cast<int>(insert.LastInsertRowId());
}

void SceneDatabase::UpdateCamera(int camera_id, const Camera& camera, bool prior_focal_length) {
  RequireWritable("update a camera");
  internal::SqliteStatement& update = statements_->write->update_camera;
  BindCamera(camera, prior_focal_length, path_, &update);
  update.BindInt64(6, camera_id);
  update.Run("update camera " + std::to_string(camera_id));
  PROJ_REQUIRE(update.NumChanges() == 1, "cannot update camera " << camera_id << " in "
                                             << internal::DatabaseSubject(path_)
                                             << ": there is no such camera");
}

std::vector<DatabaseCamera> SceneDatabase::ReadCameras() const {
  StatementUse row(&statements_->read_cameras);
  std::vector<DatabaseCamera> cameras;
  while (row->Step("read the cameras")) {
    DatabaseCamera camera;
    camera.camera_id = static_cast<int>(row->ColumnInt64(0));
    const RowOrigin origin{path_, "cameras", "camera_id", camera.camera_id};
    const void* params = row->ColumnBlob(4);
    camera.camera = internal::CameraFromColmap(row->ColumnInt64(1), row->ColumnInt64(2),
                                               row->ColumnInt64(3), params,
                                               row->ColumnBytes(4), origin);
    camera.prior_focal_length = row->ColumnInt64(5) != 0;
    cameras.push_back(std::move(camera));
  }
  return cameras;
}

void SceneDatabase::DeleteUnusedCameras() {
  RequireWritable("delete unused cameras");
  statements_->write->delete_unused_cameras.Run("delete unused cameras");
}

int SceneDatabase::AddImage(const std::string& name, int camera_id) {
  RequireWritable("add an image");
  const std::string subject = internal::DatabaseSubject(path_);
  PROJ_REQUIRE(!name.empty(), "cannot add an image without a name to " << subject);
  const std::optional<DatabaseImage> existing = FindImage(name);
  PROJ_REQUIRE(!existing, "cannot add image '" << name << "' to " << subject
                              << ": it already has an image of that name (image "
                              << existing->image_id << ")");
  PROJ_REQUIRE(RowExists(&statements_->camera_exists, camera_id, "look up a camera"),
               "cannot add image '" << name << "' to " << subject << ": it has no camera "
                                    << camera_id);
  internal::SqliteStatement& insert = statements_->write->insert_image;
  insert.BindText(1, name);
  insert.BindInt64(2, camera_id);
  insert.Run("add image '" + name + "'");
  return static_cast<int>(insert.LastInsertRowId());
}

void SceneDatabase::SetImageCamera(int image_id, int camera_id) {
  RequireWritable("set the camera of an image");
  const std::string subject = internal::DatabaseSubject(path_);
  PROJ_REQUIRE(RowExists(&statements_->camera_exists, camera_id, "look up a camera"),
               "cannot give image " << image_id << " camera " << camera_id << " in " << subject
                                    << ": there is no such camera");
  internal::SqliteStatement& update = statements_->write->set_image_camera;
  update.BindInt64(1, camera_id);
  update.BindInt64(2, image_id);
  update.Run("set the camera of image " + std::to_string(image_id));
  PROJ_REQUIRE(update.NumChanges() == 1, "cannot give image " << image_id << " camera "
                                             << camera_id << " in " << subject
                                             << ": there is no such image");
}

std::optional<DatabaseImage> SceneDatabase::FindImage(const std::string& name) const {
  StatementUse row(&statements_->find_image);
  row->BindText(1, name);
  if (!row->Step("look up an image by name")) return std::nullopt;
  return ImageFromRow(*row);
}

std::vector<DatabaseImage> SceneDatabase::ReadImages() const {
  StatementUse row(&statements_->read_images);
  std::vector<DatabaseImage> images;
  while (row->Step("read the images")) images.push_back(ImageFromRow(*row));
  return images;
}

void SceneDatabase::DeleteImage(int image_id) {
  RequireWritable("delete an image");
  internal::WriteStatements& write = *statements_->write;
  const std::string action = "delete image " + std::to_string(image_id);
  AtomicWrite atomic(&write);
  // Every table by its key; the pairs first, while the image still bounds their search.
  internal::DeletePairsOfImage(&write, image_id, action);
  for (internal::SqliteStatement* statement :
       {&write.delete_keypoints, &write.delete_descriptors, &write.delete_pose_prior,
        &write.delete_image_file, &write.delete_image_capture, &write.delete_klt_count,
        &write.delete_image}) {
    statement->BindInt64(1, image_id);
    statement->Run(action);
  }
  atomic.Release();
}

void SceneDatabase::WritePosePrior(int image_id, const PosePrior& prior) {
  RequireWritable("write a pose prior");
  internal::SqliteStatement& write = statements_->write->write_pose_prior;
  // COLMAP writes Eigen's storage as is: column-major (the covariance is symmetric anyway).
  const Eigen::Matrix3d& covariance = prior.position_covariance;
  write.BindInt64(1, image_id);
  write.BindBlob(2, prior.position.data(), 3 * sizeof(double));
  write.BindInt64(3, static_cast<int64_t>(prior.coordinate_system));
  write.BindBlob(4, covariance.data(), 9 * sizeof(double));
  write.Run("write the pose prior of image " + std::to_string(image_id));
}

std::optional<PosePrior> SceneDatabase::ReadPosePrior(int image_id) const {
  StatementUse row(&statements_->read_pose_prior);
  row->BindInt64(1, image_id);
  if (!row->Step("read a pose prior")) return std::nullopt;
  const RowOrigin origin{path_, "pose_priors", "image_id", image_id};
  PosePrior prior;
  const void* position = row->ColumnBlob(0);
  internal::DoublesFromBlob(position, row->ColumnBytes(0), 3, "position", origin,
                            prior.position.data());
  const int64_t system = row->ColumnInt64(1);
  if (system < -1 || system > 1) {
    internal::ThrowCorruptRow(origin, "coordinate_system " + std::to_string(system) +
                                          " is not -1 (undefined), 0 (WGS84) or 1 (Cartesian)");
  }
  prior.coordinate_system = static_cast<PosePrior::CoordinateSystem>(system);
  const void* covariance = row->ColumnBlob(2);
  internal::DoublesFromBlob(covariance, row->ColumnBytes(2), 9, "position_covariance", origin,
                            prior.position_covariance.data());
  return prior;
}

void SceneDatabase::DeletePosePrior(int image_id) {
  RequireWritable("delete a pose prior");
  internal::SqliteStatement& remove = statements_->write->delete_pose_prior;
  remove.BindInt64(1, image_id);
  remove.Run("delete the pose prior of image " + std::to_string(image_id));
}

void SceneDatabase::WriteEnuFrame(const EnuFrame& frame) {
  RequireWritable("write the ENU frame");
  internal::SqliteStatement& write = statements_->write->write_enu_frame;
  write.BindDouble(1, frame.ref_latitude_deg);
  write.BindDouble(2, frame.ref_longitude_deg);
  write.BindDouble(3, frame.ref_altitude_m);
  // Bound text must outlive Run() (SQLITE_STATIC).
  const std::string heights = VerticalDatumKey(frame.heights);
  const std::string output = VerticalDatumKey(frame.output_heights);
  const std::string fixes = frame.fixes_datum ? VerticalDatumKey(*frame.fixes_datum) : "";
  write.BindText(4, heights);
  write.BindText(5, output);
  if (frame.fixes_datum) {
    write.BindText(6, fixes);
  } else {
    write.BindNull(6);
  }
  write.Run("write the ENU frame");
}

namespace {

VerticalDatum DatumOfColumn(const std::string& text, const RowOrigin& origin,
                            const std::string& column) {
  if (text != "egm96" && text != "ellipsoid") {
    internal::ThrowCorruptRow(origin, column + " '" + text + "' is not 'egm96' or 'ellipsoid'");
  }
  return VerticalDatumFromKey(text);
}

}  // namespace

std::optional<EnuFrame> SceneDatabase::ReadEnuFrame() const {
  StatementUse row(&statements_->read_enu_frame);
  if (!row->Step("read the ENU frame")) return std::nullopt;
  const RowOrigin origin{path_, "proj_enu_frame", "id", 0};
  EnuFrame frame{row->ColumnDouble(0), row->ColumnDouble(1), row->ColumnDouble(2)};
  frame.heights = DatumOfColumn(row->ColumnText(3), origin, "heights_datum");
  frame.output_heights = DatumOfColumn(row->ColumnText(4), origin, "output_datum");
  if (!row->IsNull(5)) frame.fixes_datum = DatumOfColumn(row->ColumnText(5), origin, "fixes_datum");
  return frame;
}

void SceneDatabase::WriteImageCapture(int image_id, const ImageCapture& capture) {
  RequireWritable("write the capture information");
  internal::SqliteStatement& write = statements_->write->write_image_capture;
  write.BindInt64(1, image_id);
  if (capture.time_s) {
    write.BindDouble(2, *capture.time_s);
  } else {
    write.BindNull(2);
  }
  const std::string datum = capture.altitude_datum ? VerticalDatumKey(*capture.altitude_datum) : "";
  if (capture.altitude_datum) {
    write.BindText(3, datum);  // outlives Run() (SQLITE_STATIC)
  } else {
    write.BindNull(3);
  }
  write.Run("write the capture information of image " + std::to_string(image_id));
}

ImageCapture SceneDatabase::ReadImageCapture(int image_id) const {
  StatementUse row(&statements_->read_image_capture);
  row->BindInt64(1, image_id);
  ImageCapture capture;
  if (!row->Step("read the capture information")) return capture;
  const RowOrigin origin{path_, "proj_image_capture", "image_id", image_id};
  if (!row->IsNull(0)) capture.time_s = row->ColumnDouble(0);
  if (!row->IsNull(1)) capture.altitude_datum = DatumOfColumn(row->ColumnText(1), origin, "altitude_datum");
  return capture;
}

void SceneDatabase::DeleteEnuFrame() {
  RequireWritable("delete the ENU frame");
  statements_->write->delete_enu_frame.Run("delete the ENU frame");
}

void SceneDatabase::WriteImageFileInfo(int image_id, const ImageFileInfo& info) {
  RequireWritable("write image file information");
  internal::SqliteStatement& write = statements_->write->write_image_file;
  write.BindInt64(1, image_id);
  write.BindInt64(2, info.file_size);
  write.BindInt64(3, info.modification_time_ns);
  write.BindInt64(4, info.width);
  write.BindInt64(5, info.height);
  if (info.exif_focal_px) {
    write.BindDouble(6, *info.exif_focal_px);
  } else {
    write.BindNull(6);
  }
  write.BindText(7, info.camera_label);
  write.Run("write the file information of image " + std::to_string(image_id));
}

std::optional<ImageFileInfo> SceneDatabase::ReadImageFileInfo(int image_id) const {
  StatementUse row(&statements_->read_image_file);
  row->BindInt64(1, image_id);
  if (!row->Step("read image file information")) return std::nullopt;
  ImageFileInfo info;
  info.file_size = row->ColumnInt64(0);
  info.modification_time_ns = row->ColumnInt64(1);
  info.width = static_cast<int>(row->ColumnInt64(2));
  info.height = static_cast<int>(row->ColumnInt64(3));
  if (!row->IsNull(4)) info.exif_focal_px = row->ColumnDouble(4);
  info.camera_label = row->ColumnText(5);
  return info;
}

void SceneDatabase::WriteSkippedFiles(const std::vector<SkippedFile>& files) {
  RequireWritable("write the skipped files");
  internal::WriteStatements& write = *statements_->write;
  AtomicWrite atomic(&write);
  write.delete_skipped_files.Run("write the skipped files");
  for (const SkippedFile& file : files) {
    write.insert_skipped_file.BindText(1, file.name);
    write.insert_skipped_file.BindText(2, file.reason);
    write.insert_skipped_file.BindInt64(3, file.file_size);
    write.insert_skipped_file.BindInt64(4, file.modification_time_ns);
    write.insert_skipped_file.Run("write the skipped files");
  }
  atomic.Release();
}

std::vector<SkippedFile> SceneDatabase::ReadSkippedFiles() const {
  StatementUse row(&statements_->read_skipped_files);
  std::vector<SkippedFile> files;
  while (row->Step("read the skipped files")) {
    SkippedFile file;
    file.name = row->ColumnText(0);
    file.reason = row->ColumnText(1);
    file.file_size = row->ColumnInt64(2);
    file.modification_time_ns = row->ColumnInt64(3);
    files.push_back(std::move(file));
  }
  return files;
}

void SceneDatabase::WriteStageOptions(const std::string& stage, const std::string& options) {
  RequireWritable("write stage options");
  internal::SqliteStatement& write = statements_->write->write_stage_options;
  write.BindText(1, stage);
  write.BindText(2, options);
  write.Run("write the options of stage '" + stage + "'");
}

std::optional<std::string> SceneDatabase::ReadStageOptions(const std::string& stage) const {
  StatementUse row(&statements_->read_stage_options);
  row->BindText(1, stage);
  if (!row->Step("read stage options")) return std::nullopt;
  return row->ColumnText(0);
}

void SceneDatabase::DeleteStageOptions(const std::string& stage) {
  RequireWritable("delete stage options");
  internal::SqliteStatement& remove = statements_->write->delete_stage_options;
  remove.BindText(1, stage);
  remove.Run("delete the options of stage '" + stage + "'");
}

void SceneDatabase::WriteKltPointCount(int image_id, int num_klt_points) {
  RequireWritable("write a KLT point count");
  PROJ_REQUIRE(num_klt_points >= 0, "cannot write the KLT point count of image "
                                        << image_id << " to " << internal::DatabaseSubject(path_)
                                        << ": it must not be negative, not " << num_klt_points);
  internal::SqliteStatement& write = statements_->write->write_klt_count;
  write.BindInt64(1, image_id);
  write.BindInt64(2, num_klt_points);
  write.Run("write the KLT point count of image " + std::to_string(image_id));
}

std::optional<int> SceneDatabase::ReadKltPointCount(int image_id) const {
  StatementUse row(&statements_->read_klt_count);
  row->BindInt64(1, image_id);
  if (!row->Step("read a KLT point count")) return std::nullopt;
  return static_cast<int>(row->ColumnInt64(0));
}

std::vector<int> ImageIdsInNameOrder(const SceneDatabase& database) {
  std::vector<DatabaseImage> images = database.ReadImages();
  std::sort(images.begin(), images.end(),
            [](const DatabaseImage& a, const DatabaseImage& b) { return a.name < b.name; });
  std::vector<int> ids;
  for (const DatabaseImage& image : images) ids.push_back(image.image_id);
  return ids;
}

}  // namespace proj
