#include "datasets/synthetic/synthetic_output.h"

#include <cstdio>
#include <filesystem>
#include <set>

#include "core/check.h"
#include "core/logging.h"
#include "core/timer.h"
#include "io/atomic_file.h"
#include "io/exif_writer.h"
#include "io/image_encode.h"
#include "io/image_folder.h"
#include "io/ply.h"

namespace proj {
namespace {

std::vector<PlyCamera> PlyCameras(const std::vector<StrechaCamera>& cameras) {
  std::vector<PlyCamera> glyphs;
  for (const StrechaCamera& camera : cameras) {
    PlyCamera glyph;
    glyph.K = camera.K;
    glyph.world_from_cam = camera.R;
    glyph.center = camera.C;
    glyph.width = camera.width;
    glyph.height = camera.height;
    glyphs.push_back(glyph);
  }
  return glyphs;
}

}  // namespace

std::string SyntheticImageName(int index) {
  char name[32];
  std::snprintf(name, sizeof(name), "%04d.jpg", index);
  return name;
}

void PrepareSyntheticOutput(const std::string& out_dir, int num_images) {
  namespace fs = std::filesystem;
  const std::string images_dir = (fs::path(out_dir) / "images").string();
  EnsureWritableDirectory(out_dir);
  EnsureWritableDirectory(images_dir);
  EnsureWritableDirectory((fs::path(out_dir) / "depth").string());
  EnsureWritableDirectory((fs::path(out_dir) / "gt_dense_cameras").string());
  std::set<std::string> names;
  for (int i = 0; i < num_images; ++i) names.insert(SyntheticImageName(i));
  for (const std::string& existing : ListImageFiles(images_dir)) {
    const std::string name = fs::path(existing).filename().string();
    PROJ_REQUIRE(names.count(name) > 0, "output folder '" << images_dir << "' already holds '" << name
                                            << "', which this scene of " << num_images
                                            << " views would not replace; use an empty folder");
  }
}

void WriteSyntheticViews(const std::vector<StrechaCamera>& cameras,
                         const std::function<Image(int)>& render,
                         const std::function<FloatRaster(int)>& render_depth, int jpeg_quality,
                         const std::string& out_dir, const std::function<ExifData(int)>& exif) {
  namespace fs = std::filesystem;
  PROJ_REQUIRE(!cameras.empty(), "synthetic scene without views");
  const std::string images_dir = (fs::path(out_dir) / "images").string();
  const std::string cameras_dir = (fs::path(out_dir) / "gt_dense_cameras").string();
  const std::string depth_dir = (fs::path(out_dir) / "depth").string();
  PrepareSyntheticOutput(out_dir, static_cast<int>(cameras.size()));

  Timer render_timer;
  for (size_t i = 0; i < cameras.size(); ++i) {
    const std::string name = SyntheticImageName(static_cast<int>(i));
    const std::string path = (fs::path(images_dir) / name).string();
    if (exif) {
      WriteJpegWithExif(path, render(static_cast<int>(i)), exif(static_cast<int>(i)), jpeg_quality);
    } else {
      WriteJpeg(path, render(static_cast<int>(i)), jpeg_quality);
    }
    WriteFloatRasterFile((fs::path(depth_dir) / (name + ".bin")).string(), render_depth(static_cast<int>(i)));
    WriteStrechaCamera((fs::path(cameras_dir) / (name + ".camera")).string(), cameras[i]);
  }
  const Eigen::Matrix3d& K = cameras.front().K;
  WriteFileAtomically((fs::path(images_dir) / "K.txt").string(), [&](std::ostream& stream) {
    stream.precision(17);
    for (int r = 0; r < 3; ++r) stream << K(r, 0) << ' ' << K(r, 1) << ' ' << K(r, 2) << " \n";
  });
  WriteCamerasPly((fs::path(out_dir) / "gt_cameras.ply").string(), PlyCameras(cameras));
  PROJ_LOG(kInfo, "synthetic scene: " << cameras.size() << " views of " << cameras.front().width << "x"
                                      << cameras.front().height << " rendered and written to '" << out_dir
                                      << "' in " << render_timer.ElapsedSeconds() << " s");
}

}  // namespace proj
