#include "sfm/stages/camera_assignment.h"

#include <gtest/gtest.h>

namespace proj {
namespace {

ImageFileInfo Photo(int width, int height, std::optional<double> focal_px) {
  ImageFileInfo info;
  info.width = width;
  info.height = height;
  info.exif_focal_px = focal_px;
  return info;
}

TEST(AutoCameraModel, WideLensesGetTheSecondRadialTerm) {
  // DJI Phantom 3 (FC300S): 20 mm on 35 mm film, 4000x2250.
  EXPECT_EQ(AutoCameraModel(Photo(4000, 2250, 20.0 / 36 * 4000)), CameraModelId::kRadial);
  // Portrait photos are judged by their longer side too.
  EXPECT_EQ(AutoCameraModel(Photo(2250, 4000, 24.0 / 36 * 4000)), CameraModelId::kRadial);
  // 35 mm and a normal lens (Strecha's scenes, the synthetic scene) keep SIMPLE_RADIAL.
  EXPECT_EQ(AutoCameraModel(Photo(3072, 2048, 35.0 / 36 * 3072)), CameraModelId::kSimpleRadial);
  EXPECT_EQ(AutoCameraModel(Photo(1280, 960, 1100)), CameraModelId::kSimpleRadial);
  // Without an EXIF focal length nothing is known about the lens.
  EXPECT_EQ(AutoCameraModel(Photo(4000, 2250, std::nullopt)), CameraModelId::kSimpleRadial);
}

TEST(PriorCamera, AnExplicitModelWinsOverAuto) {
  const ImageFileInfo wide = Photo(4000, 2250, 2222);
  CameraOptions options;
  EXPECT_EQ(PriorCamera(options, wide).model, CameraModelId::kRadial);
  options.model = CameraModelId::kSimpleRadial;
  EXPECT_EQ(PriorCamera(options, wide).model, CameraModelId::kSimpleRadial);
  EXPECT_DOUBLE_EQ(PriorCamera(options, wide).MeanFocal(), 2222);
}

}  // namespace
}  // namespace proj
