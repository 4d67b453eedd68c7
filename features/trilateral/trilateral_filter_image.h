// Whole-image trilateral filtering for `sfm filter IN OUT --trilateral SIGMA_C`: the image is
// turned grey (Rec. 601 luma in [0, 1], features/image_preprocessing.h) and filtered on the
// GPU (default TrilateralGpuOptions: the published method, conformant) or with the CPU
// reference. The output is NOT clamped
// (the tilted plane can overshoot, spec §1): clamp to [0, 1] before writing 8-bit files.
#pragma once

#include "features/feature_extractor.h"
#include "features/feature_types.h"
#include "io/image.h"

namespace proj {

// device: kGpu needs a usable GPU (else InputError); kAuto uses one when available.
// num_threads: CPU threads (0 = all). Throws InputError for an empty image or bad sigma_c.
GrayImage TrilateralFilterImage(const GrayImage& image, double sigma_c, ComputeDevice device,
                                int num_threads = 0);
GrayImage TrilateralFilterImage(const Image& image, double sigma_c, ComputeDevice device,
                                int num_threads = 0);

}  // namespace proj
