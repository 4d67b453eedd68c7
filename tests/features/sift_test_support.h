// Helpers shared by the SIFT and GPU-matching tests and benchmarks (no gtest here):
// loading a JPEG as a GrayImage, Strecha ground-truth cameras, Sampson distances, and a
// small CPU brute-force RootSIFT matcher used as the reference for the GPU matcher.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "features/feature_types.h"
#include "matching/matching_types.h"

namespace proj::testing {

// Grey [0, 1] image of a JPEG file (luma as TurboJPEG decodes it). Throws InputError.
GrayImage LoadGrayJpeg(const std::string& path);

// A crop [x0, x0 + width) x [y0, y0 + height) of `image`.
GrayImage CropImage(const GrayImage& image, int x0, int y0, int width, int height);

// OpenCV's SIFT (features2d) on the image quantised to 8 bits (OpenCV 4.6 accepts CV_8U
// only), converted like features/opencv_sift_extractor.cc (pixel centres at +0.5, scale =
// size / 2). The reference of the quality test and the CPU benchmark.
FeatureSet ExtractOpenCvSift(const GrayImage& image, int max_features);

// Strecha .camera file (see ../shared/datasets/README.md): x ~ K R^T (X - C).
struct StrechaCamera {
  Eigen::Matrix3d K;
  Eigen::Matrix3d R;  // camera to world
  Eigen::Vector3d C;  // centre in world, metres
  int width = 0;
  int height = 0;
};
StrechaCamera ReadStrechaCamera(const std::string& path);

// Fundamental matrix with x2^T F x1 = 0 for pixel coordinates of the K matrices.
Eigen::Matrix3d FundamentalMatrix(const StrechaCamera& camera1, const StrechaCamera& camera2);

// First-order geometric (Sampson) distance of a correspondence to F, in pixels.
double SampsonDistance(const Eigen::Matrix3d& F, const Eigen::Vector2d& x1,
                       const Eigen::Vector2d& x2);

// RootSIFT (L1 normalise, square root) of uint8 descriptors as rows of unit L2 norm.
Eigen::MatrixXf RootSiftMatrix(const FeatureSet& features);

// Reference brute-force matcher: for each i, best and second best j by L2 distance of
// RootSIFT descriptors; keep (i, j) when d1 < max_ratio * d2 and (with cross_check) i is
// the nearest neighbour of j (the rule of matching/cpu_descriptor_matcher.h). Sorted by
// index1; ties between equal dot products keep the lower index.
std::vector<FeatureMatch> MatchBruteForce(const FeatureSet& features1, const FeatureSet& features2,
                                          double max_ratio, bool cross_check);

}  // namespace proj::testing
