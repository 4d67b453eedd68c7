// Writes the seed corpus of the fuzz targets (scripts/fuzz.sh), one folder per target:
//   OUT/image_decode     photographs of the shared datasets downscaled and re-encoded (JPEG at
//                        two qualities, with and without their EXIF block; PNG RGB and grey)
//                        and small synthetic renders
//   OUT/exif             the EXIF blocks of those photographs and hand-made ones (GPS, a
//                        negative focal length, an IFD that links to itself)
//   OUT/ply              point clouds and camera frusta written by io/ply.h, one ASCII file
//   OUT/float_raster     a depth map and a normal map in COLMAP's .bin format
//                        (io/float_raster_file.h)
//   OUT/colmap_text      a synthetic model written by WriteColmapText, and an empty one
//   OUT/colmap_binary    the same by WriteColmapBinary
//   OUT/scene_database   a small scene database with every table filled, and an empty one
//   OUT/gcp_file         a synthetic flight's gcp_list.txt and hand-made ones (each CRS
//                        notation, unnamed points, comments)
// Multi-file models are joined with fuzz::kFileSeparator. Nothing here is checked in: the
// corpus is rebuilt from the datasets and the generator on every run.
//   make_fuzz_seeds OUT_DIR [DATASETS_DIR]   (photographs are skipped without DATASETS_DIR)
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/check.h"
#include "datasets/synthetic/synthetic_gcps.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "io/atomic_file.h"
#include "io/file_bytes.h"
#include "io/float_raster_file.h"
#include "io/image_decode.h"
#include "io/image_encode.h"
#include "io/jpeg_markers.h"
#include "io/ply.h"
#include "sfm/database/scene_database.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/reliability/exif_bytes.h"

namespace proj {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

void WriteSeed(const fs::path& path, const Bytes& bytes) {
  fs::create_directories(path.parent_path());
  WriteFileAtomically(
      path.string(),
      [&](std::ostream& out) {
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
      },
      /*binary=*/true);
}

Bytes ToBytes(const std::string& text) { return Bytes(text.begin(), text.end()); }

// Box-filter downscale to at most `max_side` pixels on the longer side.
Image Downscale(const Image& image, int max_side) {
  const int factor = std::max(1, (std::max(image.width, image.height) + max_side - 1) / max_side);
  Image small;
  small.width = image.width / factor;
  small.height = image.height / factor;
  small.channels = image.channels;
  small.data.resize(static_cast<size_t>(small.width) * small.height * small.channels);
  for (int y = 0; y < small.height; ++y) {
    for (int x = 0; x < small.width; ++x) {
      for (int c = 0; c < image.channels; ++c) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy) {
          for (int dx = 0; dx < factor; ++dx)
            sum += image.pixel(x * factor + dx, y * factor + dy)[c];
        }
        small.data[(static_cast<size_t>(y) * small.width + x) * small.channels + c] =
            static_cast<uint8_t>(sum / (factor * factor));
      }
    }
  }
  return small;
}

Image ToGrey(const Image& image) {
  Image grey{image.width, image.height, 1, {}};
  grey.data.resize(static_cast<size_t>(image.width) * image.height);
  for (size_t i = 0; i < grey.data.size(); ++i) {
    const uint8_t* p = &image.data[i * image.channels];
    grey.data[i] = static_cast<uint8_t>((p[0] * 77 + p[1] * 150 + p[2] * 29) >> 8);
  }
  return grey;
}

// `jpeg` with an APP1 segment holding `exif` ("Exif\0\0"...) right after its SOI marker.
Bytes WithExif(const Bytes& jpeg, const uint8_t* exif, size_t exif_size) {
  const size_t length = exif_size + 2;
  Bytes out(jpeg.begin(), jpeg.begin() + 2);
  out.insert(out.end(),
             {0xFF, 0xE1, static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length)});
  out.insert(out.end(), exif, exif + exif_size);
  out.insert(out.end(), jpeg.begin() + 2, jpeg.end());
  return out;
}

void WriteImageSeeds(const fs::path& dir, const std::string& stem, const Image& image) {
  WriteSeed(dir / (stem + "_q90.jpg"), EncodeJpeg(image, 90));
  WriteSeed(dir / (stem + "_q50.jpg"), EncodeJpeg(image, 50));
  WriteSeed(dir / (stem + ".png"), EncodePng(image));
  if (image.channels == 3) WriteSeed(dir / (stem + "_grey.png"), EncodePng(ToGrey(image)));
}

// A few photographs of each dataset: their EXIF blocks and small re-encodes.
int WritePhotographSeeds(const fs::path& out, const fs::path& datasets) {
  std::vector<fs::path> photos;
  for (const char* images : {"strecha/fountain-P11/images", "strecha/castle-P19/images",
                             "drone/brighton_beach/images"}) {
    const fs::path dir = datasets / images;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".jpg" || ext == ".JPG") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    files.resize(std::min<size_t>(files.size(), 2));
    photos.insert(photos.end(), files.begin(), files.end());
  }
  for (const fs::path& photo : photos) {
    const std::string stem =
        photo.parent_path().parent_path().filename().string() + "_" + photo.stem().string();
    const Bytes prefix = ReadFilePrefix(photo.string(), 256 * 1024);
    const JpegMarkerInfo markers = ParseJpegMarkers(prefix.data(), prefix.size());
    const Image small = Downscale(ReadImageFile(photo.string()), 96);
    WriteImageSeeds(out / "image_decode", stem, small);
    if (markers.exif != nullptr && markers.exif_size + 2 <= 0xFFFF) {
      WriteSeed(out / "exif" / (stem + ".exif"),
                Bytes(markers.exif, markers.exif + markers.exif_size));
      WriteSeed(out / "image_decode" / (stem + "_exif.jpg"),
                WithExif(EncodeJpeg(small, 90), markers.exif, markers.exif_size));
    }
  }
  return static_cast<int>(photos.size());
}

// EXIF blocks with the tags the parser reads, and links a broken file could hold.
void WriteHandMadeExifSeeds(const fs::path& dir) {
  using namespace testing;
  const std::vector<TiffEntry> ifd0 = {AsciiEntry(0x010F, "Maker"), AsciiEntry(0x0110, "Model 1"),
                                       ShortEntry(0x0112, 6)};
  const std::vector<TiffEntry> exif_ifd = {
      RationalEntry(0x920A, 35, 10), ShortEntry(0xA405, 28),   RationalEntry(0xA20E, 4000, 1),
      ShortEntry(0xA210, 3),         ShortEntry(0xA002, 4000), ShortEntry(0xA003, 3000)};
  const std::vector<TiffEntry> gps_ifd = {AsciiEntry(0x0001, "N"), DegreesEntry(0x0002, 50),
                                          AsciiEntry(0x0003, "W"), DegreesEntry(0x0004, 1),
                                          RationalEntry(0x0006, 1234, 10)};
  WriteSeed(dir / "camera.exif", ExifBlock(ifd0, exif_ifd, 0x8769));
  WriteSeed(dir / "gps.exif", ExifBlock(ifd0, gps_ifd, 0x8825));
  WriteSeed(dir / "negative_focal.exif",
            ExifBlock(ifd0, {SRationalEntry(0x920A, -35, 10)}, 0x8769));
  WriteSeed(dir / "ifd_loop.exif", ExifBlock(ifd0, {}, 0x8769, /*ifd0_next=*/8));
}

// A small scene from the synthetic generator's cameras: points on a grid in front of the
// first camera, observed by every camera that sees them.
Scene MakeSyntheticScene(const std::vector<StrechaCamera>& cameras) {
  Scene scene;
  for (size_t i = 0; i < cameras.size(); ++i) {
    const StrechaCamera& truth = cameras[i];
    const CameraModelId model =
        i == 0 ? CameraModelId::kPinhole
               : (i == 1 ? CameraModelId::kSimpleRadial : CameraModelId::kRadial);
    scene.cameras.push_back(Camera::FromFocal(model, truth.width, truth.height, truth.K(0, 0)));
    SceneImage image;
    image.name = SyntheticImageName(static_cast<int>(i));
    image.camera_id = static_cast<int>(i);
    image.registered = true;
    image.cam_from_world = Rigid3d(truth.CamFromWorldRotation(), truth.CamFromWorldTranslation());
    scene.images.push_back(image);
  }
  const StrechaCamera& first = cameras.front();
  for (int gy = 1; gy < 4; ++gy) {
    for (int gx = 1; gx < 5; ++gx) {
      const Eigen::Vector3d ray =
          first.K.inverse() * Eigen::Vector3d(first.width * gx / 5.0, first.height * gy / 4.0, 1);
      const Eigen::Vector3d world = first.C + first.R * ray * (8 + gx);
      std::vector<TrackElement> track;
      for (size_t i = 0; i < cameras.size(); ++i) {
        Eigen::Vector2d uv;
        if (!cameras[i].Project(world, &uv)) continue;
        if (uv.x() < 0 || uv.y() < 0 || uv.x() > cameras[i].width || uv.y() > cameras[i].height)
          continue;
        SceneImage& image = scene.images[i];
        track.push_back({static_cast<int>(i), static_cast<int>(image.keypoints.size())});
        image.keypoints.push_back(uv);
        image.point3d_ids.push_back(kInvalidId);
      }
      if (track.size() >= 2) {
        scene.points[scene.AddPoint(world, track)].color << 200, 100, static_cast<uint8_t>(gx * 50);
      }
    }
  }
  return scene;
}

// The three files of a model folder joined with the fuzz separator.
Bytes JoinModelFiles(const fs::path& dir, const char* ext) {
  std::string joined;
  for (const char* name : {"cameras", "images", "points3D"}) {
    const Bytes bytes = ReadFileBytes((dir / (std::string(name) + ext)).string());
    if (!joined.empty() || name != std::string("cameras")) joined += fuzz::kFileSeparator;
    joined.append(bytes.begin(), bytes.end());
  }
  return ToBytes(joined);
}

void WriteModelSeeds(const fs::path& out, const fs::path& scratch, const Scene& scene) {
  const fs::path text = scratch / "text", binary = scratch / "binary";
  WriteColmapText(scene, text.string());
  WriteColmapBinary(scene, binary.string());
  WriteSeed(out / "colmap_text" / "synthetic", JoinModelFiles(text, ".txt"));
  WriteSeed(out / "colmap_binary" / "synthetic", JoinModelFiles(binary, ".bin"));
  const Scene empty;
  WriteColmapText(empty, (text / "empty").string());
  WriteColmapBinary(empty, (binary / "empty").string());
  WriteSeed(out / "colmap_text" / "empty", JoinModelFiles(text / "empty", ".txt"));
  WriteSeed(out / "colmap_binary" / "empty", JoinModelFiles(binary / "empty", ".bin"));
}

// Point clouds of the scene, and the camera frusta (faces) WriteSyntheticScene draws.
void WritePlySeeds(const fs::path& out, const fs::path& scratch, const Scene& scene,
                   const SyntheticSceneOptions& options) {
  std::vector<Eigen::Vector3f> points;
  std::vector<Rgb8> colors;
  for (const auto& [id, point] : scene.points) {
    points.push_back(point.position.cast<float>());
    colors.push_back({point.color[0], point.color[1], point.color[2]});
  }
  const fs::path dir = out / "ply";
  fs::create_directories(dir);
  WritePointCloudPly((dir / "points_rgb.ply").string(), points, colors);
  WritePointCloudPly((dir / "points.ply").string(), points, {});
  WriteSyntheticScene(options, (scratch / "synthetic").string());
  WriteSeed(dir / "gt_cameras.ply",
            ReadFileBytes((scratch / "synthetic" / "gt_cameras.ply").string()));
  // Our writer only writes binary little-endian; the reader also takes ASCII.
  WriteSeed(
      dir / "ascii.ply",
      ToBytes("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
              "property double z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
              "element edge 1\nproperty int vertex1\nproperty int vertex2\n"
              "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
              "0 0 0 255 0 0\n1 0 0 0 255 0\n0 1 0.5 0 0 255\n0 1\n3 0 1 2\n"));
}

// A database with a row in every table, as the pipeline writes them.
// A small depth map (one channel) and normal map (three), with holes (0) as dense stereo leaves.
void WriteFloatRasterSeeds(const fs::path& out) {
  const fs::path dir = out / "float_raster";
  fs::create_directories(dir);
  for (const int channels : {1, 3}) {
    FloatRaster raster(7, 5, channels);
    for (size_t i = 0; i < raster.data.size(); ++i) raster.data[i] = i % 4 == 0 ? 0.0f : 0.25f * i;
    WriteFloatRasterFile((dir / (channels == 1 ? "depth.bin" : "normal.bin")).string(), raster);
  }
}

void WriteDatabaseSeeds(const fs::path& out, const fs::path& scratch, const Scene& scene) {
  const fs::path path = scratch / "scene.db";
  const fs::path empty_path = scratch / "empty.db";
  { SceneDatabase empty(empty_path.string(), SceneDatabase::Mode::kReadWrite); }
  {
    SceneDatabase database(path.string(), SceneDatabase::Mode::kReadWrite);
    SceneDatabase::Transaction transaction(&database);
    std::vector<int> image_ids;
    for (size_t i = 0; i < scene.images.size(); ++i) {
      const SceneImage& image = scene.images[i];
      const int camera_id = database.AddCamera(scene.cameras[image.camera_id], i == 0);
      const int image_id = database.AddImage(image.name, camera_id);
      image_ids.push_back(image_id);
      std::vector<Keypoint> keypoints;
      for (const Eigen::Vector2d& uv : image.keypoints) {
        keypoints.push_back(
            {static_cast<float>(uv.x()), static_cast<float>(uv.y()), 2.0f, 0.5f, 1.0f, 0});
      }
      database.WriteKeypoints(image_id, keypoints);
      database.WriteDescriptors(image_id, Bytes(keypoints.size() * kSiftDescriptorSize, 7));
      ImageFileInfo info;
      info.file_size = 1000 + static_cast<int64_t>(i);
      info.width = scene.cameras[image.camera_id].width;
      info.height = scene.cameras[image.camera_id].height;
      info.exif_focal_px = 80.0;
      info.camera_label = "Synthetic camera";
      database.WriteImageFileInfo(image_id, info);
      PosePrior prior;
      prior.position = Eigen::Vector3d(50.8, -1.1, 12.0 + static_cast<double>(i));
      prior.coordinate_system = PosePrior::CoordinateSystem::kWgs84;
      database.WritePosePrior(image_id, prior);
      database.WriteKltPointCount(image_id, static_cast<int>(keypoints.size() / 2));
    }
    // Matches and a geometry for every pair: keypoints observing the same point.
    for (size_t a = 0; a < scene.images.size(); ++a) {
      for (size_t b = a + 1; b < scene.images.size(); ++b) {
        std::vector<FeatureMatch> matches;
        const SceneImage& image_a = scene.images[a];
        const SceneImage& image_b = scene.images[b];
        for (size_t ka = 0; ka < image_a.point3d_ids.size(); ++ka) {
          for (size_t kb = 0; kb < image_b.point3d_ids.size(); ++kb) {
            if (image_a.point3d_ids[ka] == image_b.point3d_ids[kb]) {
              matches.push_back({static_cast<int>(ka), static_cast<int>(kb)});
            }
          }
        }
        database.WriteMatches(image_ids[a], image_ids[b], matches);
        TwoViewGeometry geometry;
        geometry.configuration = TwoViewConfiguration::kCalibrated;
        geometry.inlier_matches = matches;
        geometry.num_e_inliers = static_cast<int>(matches.size());
        geometry.E = Eigen::Matrix3d::Identity();
        geometry.F = Eigen::Matrix3d::Identity();
        geometry.has_relative_pose = true;
        geometry.cam2_from_cam1 = image_b.cam_from_world * image_a.cam_from_world.Inverse();
        database.WriteTwoViewGeometry(image_ids[a], image_ids[b], geometry);
      }
    }
    database.WriteSkippedFiles({{"broken.jpg", "not a JPEG or PNG file", 12, 0}});
    database.WriteStageOptions("extraction", "max_image_size=3200");
    transaction.Commit();
  }
  WriteSeed(out / "scene_database" / "synthetic.db", ReadFileBytes(path.string()));
  WriteSeed(out / "scene_database" / "empty.db", ReadFileBytes(empty_path.string()));
}

// The GCPs of a small planned flight (nothing rendered), and the notations the reader takes.
void WriteGcpSeeds(const fs::path& out) {
  const fs::path dir = out / "gcp_file";
  fs::create_directories(dir);
  SyntheticFlightOptions flight;
  flight.num_images = 12;
  flight.width = 320;
  flight.height = 240;
  flight.focal_px = 280;
  const std::vector<SyntheticFlightShot> shots = PlanSyntheticFlight(flight);
  const synthetic::TerrainWorld world(flight.world, flight.seed, Eigen::Vector2d(-200, -200), Eigen::Vector2d(200, 200));
  WriteSyntheticGcpList(flight.origin, PlanSyntheticGcps(world, shots, 4), (dir / "flight.txt").string());
  WriteSeed(dir / "odm_utm.txt", ToBytes("WGS84 UTM 15N\n576091.2 5188120.8 190.5 321.3 229.9 0000.jpg gcp1\n"
                                         "576091.2 5188120.8 190.5 347.2 346.5 0001.jpg gcp1\n"));
  WriteSeed(dir / "proj_string.txt",
            ToBytes("+proj=utm +zone=15 +datum=WGS84 +units=m +no_defs\n# comment\n\n"
                    "576091.2 5188120.8 190.5 10 20 0000.jpg\n576091.2 5188120.8 190.5 30 40 0001.jpg\n"));
  WriteSeed(dir / "geographic.txt", ToBytes("EPSG:4326\n-92.0016 46.8428 190 10 20 0000.jpg a extra\n"
                                            "-92.0016 46.8428 190 30 40 0001.jpg a\n"));
}

int Run(const fs::path& out, const fs::path& datasets) {
  const fs::path scratch = out / ".scratch";
  fs::remove_all(scratch);
  fs::create_directories(scratch);

  SyntheticSceneOptions options;
  options.num_images = 3;
  options.width = 96;
  options.height = 72;
  options.focal_px = 80;
  options.supersampling = 1;
  options.num_threads = 1;
  const std::vector<SyntheticView> views = RenderSyntheticScene(options);
  std::vector<StrechaCamera> cameras;
  for (const SyntheticView& view : views) {
    WriteImageSeeds(out / "image_decode", "synthetic_" + fs::path(view.name).stem().string(),
                    view.image);
    cameras.push_back(view.camera);
  }
  const int num_photos = datasets.empty() ? 0 : WritePhotographSeeds(out, datasets);
  WriteHandMadeExifSeeds(out / "exif");

  const Scene scene = MakeSyntheticScene(cameras);
  WriteModelSeeds(out, scratch, scene);
  WritePlySeeds(out, scratch, scene, options);
  WriteDatabaseSeeds(out, scratch, scene);
  WriteFloatRasterSeeds(out);
  WriteGcpSeeds(out);
  fs::remove_all(scratch);
  std::cout << "make_fuzz_seeds: seeds in " << out.string() << " (" << num_photos
            << " photographs, " << views.size() << " synthetic views, " << scene.points.size()
            << " model points)\n";
  return 0;
}

}  // namespace
}  // namespace proj

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: make_fuzz_seeds OUT_DIR [DATASETS_DIR]\n";
    return 2;
  }
  try {
    return proj::Run(argv[1], argc == 3 ? argv[2] : "");
  } catch (const proj::InputError& error) {
    std::cerr << "make_fuzz_seeds: " << error.what() << "\n";
    return 2;
  }
}
