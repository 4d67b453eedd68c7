// sfm export's library: the written cameras, read back as nerfstudio and the 3DGS tools read
// them, reproject the model's points onto their observations in the undistorted images, and
// onto the dots drawn at those points in the exported images themselves.
#include "sfm/export/model_export.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "core/check.h"
#include "io/image_decode.h"
#include "io/ply.h"
#include "sfm/export/nerfstudio_transforms.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/undistort/undistorted_camera.h"
#include "tests/sfm/export/export_test_scene.h"
#include "tests/sfm/export/nerfstudio_transforms_reader.h"
#include "tests/support/test_data.h"

namespace proj {
namespace {
namespace fs = std::filesystem;

double Median(std::vector<double> values) {
  PROJ_CHECK(!values.empty(), "median of nothing");
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

// nerfstudio's pinhole projection (cameras.py: the ray of pixel (u, v) is ((u - cx) / fl_x,
// -(v - cy) / fl_y, -1) in the camera frame of transform_matrix, OpenGL axes).
bool ProjectNerfstudio(const testing::NerfstudioFrame& frame, const testing::NerfstudioIntrinsics& k,
                       const Eigen::Vector3d& point, Eigen::Vector2d* uv) {
  const Eigen::Vector4d p = frame.transform_matrix.inverse() * point.homogeneous();
  if (!(p.z() < 0)) return false;
  *uv = Eigen::Vector2d(k.cx + k.fl_x * p.x() / -p.z(), k.cy - k.fl_y * p.y() / -p.z());
  return true;
}

// The intensity-weighted centroid (pixel centres at +0.5) of the 7x7 pixels around `uv`;
// nullopt when they leave the image or hold no dot.
std::optional<Eigen::Vector2d> DotCentroid(const Image& image, const Eigen::Vector2d& uv) {
  const int cx = static_cast<int>(std::floor(uv.x())), cy = static_cast<int>(std::floor(uv.y()));
  if (cx < 3 || cy < 3 || cx + 3 >= image.width || cy + 3 >= image.height) return std::nullopt;
  Eigen::Vector2d sum = Eigen::Vector2d::Zero();
  double total = 0;
  for (int y = cy - 3; y <= cy + 3; ++y) {
    for (int x = cx - 3; x <= cx + 3; ++x) {
      const double value = image.data[(static_cast<size_t>(y) * image.width + x) * image.channels];
      sum += value * Eigen::Vector2d(x + 0.5, y + 0.5);
      total += value;
    }
  }
  if (total < 255) return std::nullopt;
  return sum / total;
}

// No other keypoint of `image` within 8 px of keypoint `k`, whose dot would shift the centroid.
bool Isolated(const SceneImage& image, size_t k) {
  for (size_t j = 0; j < image.keypoints.size(); ++j) {
    if (j != k && (image.keypoints[j] - image.keypoints[k]).norm() < 8) return false;
  }
  return true;
}

struct Reprojection {
  std::vector<double> keypoint_px;   // to the keypoints undistorted as sfm undistort does
  std::vector<double> distorted_px;  // to the original keypoints: what skipping undistortion costs
  std::vector<double> dot_px;        // to the dots in the exported images
};

// Records how far `uv`, the projection of the point of keypoint `k` of `image`, is from
// `observed_px` and, when its dot stands alone, from the dot in `pixels` (the exported image).
void AddErrors(const SceneImage& image, size_t k, const Eigen::Vector2d& uv, const Eigen::Vector2d& observed_px,
               const Image& pixels, Reprojection* errors) {
  errors->keypoint_px.push_back((uv - observed_px).norm());
  if (!Isolated(image, k)) return;
  if (const auto dot = DotCentroid(pixels, uv)) errors->dot_px.push_back((*dot - uv).norm());
}

// The exported image at `path`, which must be `width` x `height`.
Image ReadExportedImage(const std::string& path, int width, int height) {
  Image image = ReadImageFile(path);
  EXPECT_EQ(image.width, width) << path;
  EXPECT_EQ(image.height, height) << path;
  return image;
}

// Reads OUT/transforms.json as nerfstudio does and projects every observed point into every
// frame; checks the frames, images and points against `input` on the way.
Reprojection CheckNerfstudioExport(const testing::ExportTestScene& input, const std::string& out,
                                   const UndistortCameraOptions& camera_options) {
  const testing::NerfstudioTransforms transforms = testing::ReadNerfstudioTransforms(out + "/transforms.json");
  Eigen::Matrix<double, 3, 4> nerfstudio_applied;  // colmap_to_json: rows 0, 2, 1 of I, the last negated
  nerfstudio_applied << 1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0;
  EXPECT_EQ(transforms.applied_transform, nerfstudio_applied);
  EXPECT_EQ(transforms.ply_file_path, "sparse_pc.ply");
  const Scene& scene = input.scene;
  auto applied = [&](const Eigen::Vector3d& x) {
    return Eigen::Vector3d(transforms.applied_transform.leftCols<3>() * x + transforms.applied_transform.col(3));
  };

  const PlyMesh ply = ReadPly(out + "/" + transforms.ply_file_path);
  EXPECT_EQ(ply.positions.size(), scene.points.size());
  EXPECT_EQ(ply.colors.size(), scene.points.size());
  size_t index = 0;
  for (const auto& [id, point] : scene.points) {
    if (index >= ply.positions.size()) break;
    EXPECT_LT((ply.positions[index].cast<double>() - applied(point.position)).norm(), 1e-5) << "point " << id;
    EXPECT_EQ(ply.colors[index][0], point.color[0]);
    ++index;
  }

  Reprojection errors;
  EXPECT_EQ(transforms.frames.size(), static_cast<size_t>(scene.NumRegisteredImages()));
  for (const testing::NerfstudioFrame& frame : transforms.frames) {
    const int image_id = frame.colmap_im_id - 1;
    EXPECT_TRUE(image_id >= 0 && image_id < static_cast<int>(scene.images.size())) << frame.file_path;
    if (image_id < 0 || image_id >= static_cast<int>(scene.images.size())) continue;
    const SceneImage& image = scene.images[image_id];
    EXPECT_EQ(frame.file_path, "images/" + image.name);
    EXPECT_NE(frame.intrinsics.has_value(), transforms.intrinsics.has_value()) << frame.file_path;
    const testing::NerfstudioIntrinsics& k = frame.intrinsics ? *frame.intrinsics : *transforms.intrinsics;
    EXPECT_EQ(k.camera_model, "OPENCV");
    EXPECT_EQ(Eigen::Vector4d(k.k1, k.k2, k.p1, k.p2), Eigen::Vector4d::Zero());

    const Camera& camera = scene.cameras[image.camera_id];
    const Camera pinhole = UndistortCamera(camera, camera_options);
    EXPECT_EQ(k.w, pinhole.width);
    EXPECT_EQ(k.h, pinhole.height);
    EXPECT_EQ(Eigen::Vector4d(k.fl_x, k.fl_y, k.cx, k.cy), Eigen::Map<const Eigen::Vector4d>(pinhole.params.data()));
    const Image pixels = ReadExportedImage(out + "/" + frame.file_path, k.w, k.h);

    for (size_t i = 0; i < image.keypoints.size(); ++i) {
      if (image.point3d_ids[i] == kInvalidId) continue;
      Eigen::Vector2d uv;
      EXPECT_TRUE(ProjectNerfstudio(frame, k, applied(scene.points.at(image.point3d_ids[i]).position), &uv))
          << "behind " << frame.file_path;
      AddErrors(image, i, uv, UndistortPixel(camera, pinhole, image.keypoints[i]), pixels, &errors);
      if (camera_options.max_image_size_px == 0) errors.distorted_px.push_back((uv - image.keypoints[i]).norm());
    }
  }
  return errors;
}

ExportOptions Options(ExportFormat format) {
  ExportOptions options;
  options.format = format;
  options.undistort.num_threads = 2;
  return options;
}

TEST(NerfstudioExport, SharedCameraReprojectsOntoUndistortedObservations) {
  const std::string dir = testing::MakeTempDir("export_nerfstudio_shared");
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/false);
  const ExportOptions options = Options(ExportFormat::kNerfstudio);
  const UndistortReport report = ExportModel(input.scene, ImageSource({input.images_dir}), dir + "/out", options);
  EXPECT_EQ(report.num_written, 8);
  EXPECT_TRUE(report.skipped.empty());
  EXPECT_TRUE(testing::ReadNerfstudioTransforms(dir + "/out/transforms.json").intrinsics.has_value());

  const Reprojection errors = CheckNerfstudioExport(input, dir + "/out", options.undistort.camera);
  ASSERT_GT(errors.dot_px.size(), 50u);
  std::cout << "nerfstudio, one camera: median reprojection error " << Median(errors.keypoint_px)
            << " px to the undistorted keypoints (" << errors.keypoint_px.size() << "), "
            << Median(errors.dot_px) << " px to the dots in the images (" << errors.dot_px.size()
            << "); to the distorted keypoints " << Median(errors.distorted_px) << " px" << std::endl;
  EXPECT_LT(Median(errors.keypoint_px), 1e-6);
  EXPECT_LT(Median(errors.dot_px), 0.5);
  EXPECT_LT(*std::max_element(errors.keypoint_px.begin(), errors.keypoint_px.end()), 1e-4);
  EXPECT_GT(Median(errors.distorted_px), 1.0);  // the distortion matters: the test can fail
}

TEST(NerfstudioExport, CamerasOfOtherSizesGetPerFrameIntrinsicsAndMaxImageSize) {
  const std::string dir = testing::MakeTempDir("export_nerfstudio_per_frame");
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/true);
  ExportOptions options = Options(ExportFormat::kNerfstudio);
  options.undistort.camera.max_image_size_px = 120;
  EXPECT_EQ(ExportModel(input.scene, ImageSource({input.images_dir}), dir + "/out", options).num_written, 8);
  const testing::NerfstudioTransforms transforms = testing::ReadNerfstudioTransforms(dir + "/out/transforms.json");
  EXPECT_FALSE(transforms.intrinsics.has_value());
  for (const auto& frame : transforms.frames) {
    ASSERT_TRUE(frame.intrinsics.has_value()) << frame.file_path;
    EXPECT_LE(std::max(frame.intrinsics->w, frame.intrinsics->h), 120) << frame.file_path;
  }

  const Reprojection errors = CheckNerfstudioExport(input, dir + "/out", options.undistort.camera);
  ASSERT_GT(errors.dot_px.size(), 50u);
  std::cout << "nerfstudio, two cameras, --max-image-size 120: median reprojection error "
            << Median(errors.keypoint_px) << " px to the undistorted keypoints, " << Median(errors.dot_px)
            << " px to the dots in the images (" << errors.dot_px.size() << ")" << std::endl;
  EXPECT_LT(Median(errors.keypoint_px), 1e-6);
  EXPECT_LT(Median(errors.dot_px), 0.5);
}

TEST(GaussianSplattingExport, WritesPinholeBinaryModelAndImagesOfItsSizes) {
  const std::string dir = testing::MakeTempDir("export_3dgs");
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/true);
  EXPECT_EQ(ExportModel(input.scene, ImageSource({input.images_dir}), dir + "/out",
                        Options(ExportFormat::kGaussianSplatting))
                .num_written,
            8);
  EXPECT_FALSE(fs::exists(dir + "/out/transforms.json"));
  const Scene model = ReadColmapBinary(dir + "/out/sparse/0");
  EXPECT_EQ(model.NumRegisteredImages(), 8);
  EXPECT_EQ(model.points.size(), input.scene.points.size());
  Reprojection errors;
  for (const SceneImage& image : model.images) {
    const Camera& camera = model.cameras[image.camera_id];
    EXPECT_EQ(camera.model, CameraModelId::kPinhole) << image.name;
    const Image pixels = ReadExportedImage(dir + "/out/images/" + image.name, camera.width, camera.height);
    for (size_t i = 0; i < image.keypoints.size(); ++i) {
      if (image.point3d_ids[i] == kInvalidId) continue;
      Eigen::Vector2d uv;
      EXPECT_TRUE(camera.Project(image.cam_from_world * model.points.at(image.point3d_ids[i]).position, &uv));
      AddErrors(image, i, uv, image.keypoints[i], pixels, &errors);
    }
  }
  ASSERT_GT(errors.dot_px.size(), 50u);
  std::cout << "3dgs: median reprojection error " << Median(errors.keypoint_px) << " px to the keypoints, "
            << Median(errors.dot_px) << " px to the dots in the images (" << errors.dot_px.size() << ")"
            << std::endl;
  EXPECT_LT(Median(errors.keypoint_px), 1e-6);
  EXPECT_LT(Median(errors.dot_px), 0.5);
}

TEST(ModelExport, MissingImageIsNamedAndLeftOut) {
  const std::string dir = testing::MakeTempDir("export_missing_image");
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/false);
  fs::remove(input.images_dir + "/sub/view_3.png");
  const UndistortReport report =
      ExportModel(input.scene, ImageSource({input.images_dir}), dir + "/out", Options(ExportFormat::kNerfstudio));
  EXPECT_EQ(report.num_written, 7);
  ASSERT_EQ(report.skipped.size(), 1u);
  EXPECT_EQ(report.skipped[0].name, "sub/view_3.png");
  EXPECT_NE(report.skipped[0].reason.find("sub/view_3.png"), std::string::npos) << report.skipped[0].reason;
  const testing::NerfstudioTransforms transforms = testing::ReadNerfstudioTransforms(dir + "/out/transforms.json");
  ASSERT_EQ(transforms.frames.size(), 7u);
  for (const auto& frame : transforms.frames) EXPECT_NE(frame.file_path, "images/sub/view_3.png");
}

TEST(ModelExport, NoReadableImageWritesNoModel) {
  const std::string dir = testing::MakeTempDir("export_no_image");
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/false);
  fs::create_directories(dir + "/empty");
  for (const ExportFormat format : {ExportFormat::kNerfstudio, ExportFormat::kGaussianSplatting}) {
    const UndistortReport report = ExportModel(input.scene, ImageSource({dir + "/empty"}), dir + "/out", Options(format));
    EXPECT_EQ(report.num_written, 0);
    EXPECT_EQ(report.skipped.size(), 8u);
  }
  EXPECT_FALSE(fs::exists(dir + "/out/transforms.json"));
  EXPECT_FALSE(fs::exists(dir + "/out/sparse_pc.ply"));
  EXPECT_FALSE(fs::exists(dir + "/out/sparse"));
}

TEST(NerfstudioExport, RefusesADistortedCameraNamingTheImage) {
  const std::string dir = testing::MakeTempDir("export_distorted");
  const testing::ExportTestScene input = testing::MakeExportTestScene(dir, /*two_cameras=*/false);
  try {
    WriteNerfstudioDataset(input.scene, dir);
    FAIL() << "a SIMPLE_RADIAL camera was written as a pinhole one";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("view_0.png"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("SIMPLE_RADIAL"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/transforms.json"));
}

}  // namespace
}  // namespace proj
