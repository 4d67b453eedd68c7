#include "sfm/outputs/output_writer.h"

#include <filesystem>
#include <sstream>
#include <vector>

#include "core/check.h"
#include "io/atomic_file.h"
#include "io/ply.h"
#include "mvs/dense_cloud.h"
#include "mvs/dense_workspace.h"
#include "sfm/image_source/image_source.h"
#include "sfm/mapper/scene_geometry.h"
#include "sfm/outputs/georeferenced_outputs.h"
#include "sfm/outputs/html_report.h"
#include "sfm/outputs/report_json.h"
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

// A COLMAP model folder: text and binary, and where its images are (for sfm undistort).
void WriteModelFolder(const Scene& scene, const ImageSource& images, const std::string& dir) {
  EnsureWritableDirectory(dir);
  WriteColmapText(scene, dir);
  WriteColmapBinary(scene, dir);
  if (!images.empty()) WriteImageSource(images, dir + "/" + kImageSourceFileName);
}

// The other components' models, each with the georeference of its own GPS alignment.
void WriteComponentModels(const ReconstructionResult& result, const std::filesystem::path& out_dir) {
  for (size_t i = 0; i < result.components.size(); ++i) {
    const ComponentModel& component = result.components[i];
    const std::string dir = (out_dir / ComponentModelPath(i)).string();
    WriteModelFolder(component.scene, result.images, dir);
    if (!IsComponentGeoreferenced(result, component)) continue;
    ReconstructionResult georeferenced;
    georeferenced.scene = component.scene;
    georeferenced.mapper = component.mapper;
    georeferenced.enu_frame = result.enu_frame;
    WriteGeoreferenceJson(georeferenced, dir + "/georeference.json");
  }
}

// The dense cloud of the workspace, empty when fusion wrote none.
mvs::DenseCloud ReadDenseCloudIfAny(const std::string& dense_root) {
  const std::string path = mvs::DenseWorkspace(dense_root).PointsPlyPath();
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return {};
  return mvs::ReadDenseCloudPly(path);
}

}  // namespace

std::string ComponentModelPath(size_t index) { return "models/" + std::to_string(index + 1); }

void WriteReportPageWithDenseCloud(const ReconstructionResult& result, const RunDescription& run,
                                   const std::string& out_dir) {
  const mvs::DenseCloud cloud = ReadDenseCloudIfAny((std::filesystem::path(out_dir) / "dense").string());
  WriteHtmlReport(result, run, (std::filesystem::path(out_dir) / "report.html").string(), {}, &cloud);
}

void WriteDenseWorkspaceReportPage(const Scene& scene, const mvs::DenseSummary& dense,
                                   const std::string& model_dir, const std::string& dense_root) {
  const mvs::DenseCloud cloud = ReadDenseCloudIfAny(dense_root);
  const RunDescription run{model_dir, dense.device, ""};
  WriteDenseHtmlReport(scene, dense, cloud, run, (std::filesystem::path(dense_root) / "report.html").string());
}

void WriteReconstructionOutputs(const ReconstructionResult& result, const RunDescription& run,
                                const std::string& out_dir) {
  namespace fs = std::filesystem;
  // Every file is written into a staging folder first and the set is moved into place only
  // when all are complete: a full disk or a crash halfway never leaves a partial model.
  const fs::path staging = fs::path(out_dir) / ".outputs.partial";
  std::error_code ignored;
  fs::remove_all(staging, ignored);
  // models/ is listed whether written or not: a run with one component leaves none behind.
  std::vector<std::string> entries = {"model", "models", "points.ply", "cameras.ply", "report.json",
                                      "report.html"};
  // Listed whether written or not: a model that is no longer georeferenced must not keep the
  // georeferenced files of an earlier run.
  const std::vector<std::string>& georeferenced = GeoreferencedOutputNames();
  entries.insert(entries.end(), georeferenced.begin(), georeferenced.end());
  try {
    WriteModelFolder(result.scene, result.images, (staging / "model").string());
    WriteComponentModels(result, staging);
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
