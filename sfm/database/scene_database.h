// The scene database: one SQLite file holding everything the pipeline computes before
// mapping, in COLMAP's schema so COLMAP and GLOMAP can map our features and matches and we
// can map theirs (tables cameras, images, keypoints, descriptors, matches,
// two_view_geometries as COLMAP 3.8 writes them; pose_priors as COLMAP 3.10+ writes it).
// Our own extras live in tables prefixed `proj_` in the same file, which COLMAP ignores:
//   proj_image_files   per image: file size and modification time (to notice a changed
//                      file), original size, EXIF focal prior, camera label
//   proj_skipped_files files of the folder that could not be used, with the reason
//   proj_stage_options per stage: the options its results were computed with
//   proj_klt_images    per image of a KLT run: how many of its keypoints are KLT points
//                      (the rest, on keyframes, are SIFT keypoints)
//   proj_enu_frame     the WGS84 reference point of the local east-north-up frame in which
//                      the GPS priors are used (one row, when images carry GPS), the datum
//                      of its heights and of the georeferenced outputs
//   proj_image_capture per image: capture time and the vertical datum of its GPS altitude
//
// Conventions (COLMAP's): image and camera ids are 1-based, assigned by AUTOINCREMENT and
// never reused; a pair is stored once under PairIdFromImageIds with the smaller image id
// first, so matches and geometries are swapped (and inverted) when written or read the other
// way round; keypoints are float32 rows x 6 (x, y, a11, a12, a21, a22: the affine shape
// scale * [cos -sin; sin cos] of the orientation), read back from 2, 4 or 6 columns;
// descriptors uint8 rows x 128; matches uint32 rows x 2; matrices row-major float64;
// relative rotation as quaternion w, x, y, z. Pixel coordinates have the centre of the
// top-left pixel at (0.5, 0.5) in both systems.
//
// Errors: every failure to open, read or write is an InputError naming the file and the
// reason (missing, not a database or truncated, locked by another process, a database of
// another program, a corrupt blob). Writes are atomic through Transaction: a process killed
// at any moment leaves the last committed state. One process uses a database at a time:
// a read-write database takes SQLite's write lock when it opens and holds it (exclusive from
// its first write) until it is closed, so a second opening fails at once as "in use".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "features/feature_types.h"
#include "geometry/camera/camera.h"
#include "geometry/geodesy/local_enu_frame.h"
#include "matching/matching_types.h"
#include "matching/two_view_geometry.h"

struct sqlite3;

namespace proj {

// COLMAP's pair encoding: kMaxNumImages * smaller id + larger id.
constexpr int64_t kMaxNumDatabaseImages = 2147483647;
int64_t PairIdFromImageIds(int image_id1, int image_id2);  // order-independent
std::pair<int, int> ImageIdsFromPairId(int64_t pair_id);    // (smaller, larger)

struct DatabaseCamera {
  int camera_id = 0;
  Camera camera;
  bool prior_focal_length = false;  // the focal length came from EXIF, not a guess
};

struct DatabaseImage {
  int image_id = 0;
  std::string name;  // file name relative to the images folder (unique)
  int camera_id = 0;
};

// What we know of an image's file beyond COLMAP's columns.
struct ImageFileInfo {
  int64_t file_size = 0;
  int64_t modification_time_ns = 0;  // st_mtim as nanoseconds since the epoch
  int width = 0;                     // original size, after EXIF orientation
  int height = 0;
  std::optional<double> exif_focal_px;
  std::string camera_label;  // EXIF make/model ("" when unknown)
};

// When and how an image's file says it was taken, beyond its GPS fix (pose_priors).
struct ImageCapture {
  std::optional<double> time_s;  // EXIF DateTimeOriginal (+ SubSecTimeOriginal), seconds
  // The datum of the fix's altitude (sea level is EGM96's); nullopt without an altitude.
  std::optional<VerticalDatum> altitude_datum;
};

struct SkippedFile {
  std::string name;
  std::string reason;
  int64_t file_size = 0;
  int64_t modification_time_ns = 0;
};

// COLMAP's pose prior (3.10+ layout): a position with its covariance, in WGS84 (latitude,
// longitude, altitude) or a Cartesian frame. Ours from GPS are WGS84 (degrees, degrees,
// metres) with the covariance in square metres along east, north, up.
struct PosePrior {
  enum class CoordinateSystem { kUndefined = -1, kWgs84 = 0, kCartesian = 1 };
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Matrix3d position_covariance = Eigen::Matrix3d::Identity();
  CoordinateSystem coordinate_system = CoordinateSystem::kUndefined;
};

class SceneDatabase {
 public:
  enum class Mode {
    kReadOnly,   // the file must exist and be a scene database (ours or COLMAP's)
    kReadWrite,  // created with all tables when missing; our tables added to a COLMAP 3.x
                 // one (a COLMAP 4 database, with rigs and frames, opens read-only only)
  };
  // Throws InputError naming `path` when it cannot be opened as a scene database: missing
  // (read-only), a directory, not an SQLite file, truncated (shorter than its header says),
  // locked by another process, or an SQLite file without COLMAP's tables.
  SceneDatabase(const std::string& path, Mode mode);
  ~SceneDatabase();
  SceneDatabase(const SceneDatabase&) = delete;
  SceneDatabase& operator=(const SceneDatabase&) = delete;

  const std::string& path() const { return path_; }

  // BEGIN IMMEDIATE on construction; Commit() makes the writes durable; destruction without
  // Commit() rolls them back. Not nestable.
  class Transaction {
   public:
    explicit Transaction(SceneDatabase* database);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void Commit();

   private:
    SceneDatabase* database_;
    bool committed_ = false;
  };

  // Cameras. Models other than ours (SIMPLE_PINHOLE from COLMAP) are converted on reading:
  // SIMPLE_PINHOLE f, cx, cy becomes PINHOLE f, f, cx, cy; other models are an InputError.
  int AddCamera(const Camera& camera, bool prior_focal_length);
  void UpdateCamera(int camera_id, const Camera& camera, bool prior_focal_length);
  std::vector<DatabaseCamera> ReadCameras() const;  // by increasing camera_id
  void DeleteUnusedCameras();                       // cameras no image refers to

  // Images. AddImage throws InputError when the name exists.
  int AddImage(const std::string& name, int camera_id);
  void SetImageCamera(int image_id, int camera_id);
  std::optional<DatabaseImage> FindImage(const std::string& name) const;
  std::vector<DatabaseImage> ReadImages() const;  // by increasing image_id
  // Removes the image with everything that refers to it: keypoints, descriptors, matches
  // and geometries of its pairs, pose prior, our rows.
  void DeleteImage(int image_id);

  // Features. Keypoints keep x, y, scale and orientation (response and octave are not stored).
  void WriteKeypoints(int image_id, const std::vector<Keypoint>& keypoints);
  void WriteDescriptors(int image_id, const std::vector<uint8_t>& descriptors);  // rows x 128
  bool HasKeypoints(int image_id) const;
  std::vector<Keypoint> ReadKeypoints(int image_id) const;   // empty when none stored
  std::vector<uint8_t> ReadDescriptors(int image_id) const;  // empty when none stored
  // Copies image `from_image_id`'s keypoint and descriptor rows of `from` as stored, bytes
  // unchanged (ReadKeypoints and WriteKeypoints would round the affine shape), to
  // `image_id`; nothing for an image without features. For merging databases.
  void CopyFeatures(const SceneDatabase& from, int from_image_id, int image_id);
  // Removes keypoints, descriptors and the matches and geometries of the image's pairs (its
  // features are about to be extracted again).
  void DeleteFeatures(int image_id);

  // Putative matches of a pair; index1 refers to image_id1's keypoints whatever the order.
  void WriteMatches(int image_id1, int image_id2, const std::vector<FeatureMatch>& matches);
  // nullopt when the pair was never matched; an empty list when it was, with no match.
  std::optional<std::vector<FeatureMatch>> ReadMatches(int image_id1, int image_id2) const;
  std::vector<int64_t> ReadMatchedPairIds() const;  // increasing
  void DeleteAllMatches();  // every pair's matches and geometry

  // Verified geometry of a pair (inlier matches, configuration, F, E, H, relative pose),
  // expressed from image_id1 to image_id2 whatever the stored order.
  void WriteTwoViewGeometry(int image_id1, int image_id2, const TwoViewGeometry& geometry);
  std::optional<TwoViewGeometry> ReadTwoViewGeometry(int image_id1, int image_id2) const;
  // Every stored geometry as (pair_id, geometry from the smaller to the larger id).
  std::vector<std::pair<int64_t, TwoViewGeometry>> ReadTwoViewGeometries() const;
  std::vector<int64_t> ReadVerifiedPairIds() const;  // increasing
  // Every stored geometry's pair, inlier count and configuration, without its matches: the
  // view graph's shape at a fraction of its size (increasing pair_id).
  struct VerifiedPairSize {
    int64_t pair_id = 0;
    int num_inliers = 0;
    TwoViewConfiguration configuration = TwoViewConfiguration::kDegenerate;
  };
  std::vector<VerifiedPairSize> ReadVerifiedPairSizes() const;
  void DeleteTwoViewGeometries();                    // all of them
  // Copies the matches and geometry of pair (from_id1, from_id2) of `from` as stored, bytes
  // unchanged (reading and writing a geometry would round its rotation), to the pair
  // (image_id1, image_id2), whose ids must be in the same order (the smaller first); nothing
  // for rows `from` lacks. For merging databases.
  void CopyPair(const SceneDatabase& from, int from_id1, int from_id2, int image_id1, int image_id2);

  // Pose priors.
  void WritePosePrior(int image_id, const PosePrior& prior);
  std::optional<PosePrior> ReadPosePrior(int image_id) const;
  void DeletePosePrior(int image_id);
  // The local ENU frame of the GPS priors (proj_enu_frame).
  void WriteEnuFrame(const EnuFrame& frame);
  std::optional<EnuFrame> ReadEnuFrame() const;
  void DeleteEnuFrame();

  // Our tables.
  void WriteImageFileInfo(int image_id, const ImageFileInfo& info);
  std::optional<ImageFileInfo> ReadImageFileInfo(int image_id) const;
  void WriteImageCapture(int image_id, const ImageCapture& capture);
  ImageCapture ReadImageCapture(int image_id) const;  // all nullopt when none was written
  void WriteSkippedFiles(const std::vector<SkippedFile>& files);  // replaces the whole list
  std::vector<SkippedFile> ReadSkippedFiles() const;              // by name
  // The options a stage's stored results were computed with, as text (StageOptions).
  void WriteStageOptions(const std::string& stage, const std::string& options);
  std::optional<std::string> ReadStageOptions(const std::string& stage) const;
  void DeleteStageOptions(const std::string& stage);
  // KLT runs: the number of KLT points at the start of an image's keypoint list.
  void WriteKltPointCount(int image_id, int num_klt_points);
  std::optional<int> ReadKltPointCount(int image_id) const;

  // Row counts, for reports and tests.
  int NumImages() const;
  int NumCameras() const;
  int64_t NumKeypoints() const;  // summed over images

 private:
  // Opens db_, checks what the file is and creates missing tables (constructor's body).
  void Open();
  // Throws InputError when the database is open read-only; `action` names the write.
  void RequireWritable(const char* action) const;

  std::string path_;
  Mode mode_;
  sqlite3* db_ = nullptr;
  bool in_transaction_ = false;
  struct Statements;  // prepared statements, created once
  std::unique_ptr<Statements> statements_;
};

// The database image ids of all images of `database`, in name order.
std::vector<int> ImageIdsInNameOrder(const SceneDatabase& database);

}  // namespace proj
