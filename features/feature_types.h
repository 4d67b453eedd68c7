// Keypoints and descriptors as every extractor (CPU or GPU) produces them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace proj {

// Grey image with values in [0, 1], row-major. Input of every feature extractor.
struct GrayImage {
  int width = 0;
  int height = 0;
  std::vector<float> pixels;  // width * height
  float at(int x, int y) const { return pixels[static_cast<size_t>(y) * width + x]; }
};

// A keypoint in pixel coordinates of the image it was extracted from, with the centre of the
// top-left pixel at (0.5, 0.5) (see geometry/camera/camera_models.h).
struct Keypoint {
  float x = 0;
  float y = 0;
  float scale = 0;        // sigma of the detection scale, in pixels
  float orientation = 0;  // radians, in [0, 2 pi); image x axis = 0, towards +y (down)
  float response = 0;     // detector response (|DoG| for SIFT); larger is stronger
  int octave = 0;         // octave index (-1 for the upsampled octave)
};

constexpr int kSiftDescriptorSize = 128;

// Keypoints with their 128-byte descriptors, descriptors[i * 128 .. i * 128 + 127] for
// keypoint i. Descriptors are SIFT-normalised (L2, clamp 0.2, L2) scaled to uint8 as
// min(255, 512 * value), the VLFeat/COLMAP convention.
struct FeatureSet {
  std::vector<Keypoint> keypoints;
  std::vector<uint8_t> descriptors;

  int size() const { return static_cast<int>(keypoints.size()); }
  // Rows of `descriptors`: size(), or the count of a set loaded without its keypoints.
  int num_descriptors() const { return static_cast<int>(descriptors.size() / kSiftDescriptorSize); }
  const uint8_t* descriptor(int index) const { return &descriptors[static_cast<size_t>(index) * kSiftDescriptorSize]; }
};

}  // namespace proj
