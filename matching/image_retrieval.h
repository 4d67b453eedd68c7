// Which images look alike, cheaply: a bag of visual words over SIFT descriptors (Sivic &
// Zisserman, "Video Google", ICCV 2003; Nister & Stewenius, "Scalable Recognition with a
// Vocabulary Tree", CVPR 2006, with one flat level). The vocabulary is learnt by k-means from
// a sample of the images' own descriptors; each image becomes a tf-idf weighted, L2-normalised
// histogram of its words, and two images are as similar as the dot product of theirs.
//
// Used for loop closure in ordered input (--matcher sequential, --matcher klt with keyframe
// SIFT): pairs of images far apart in the sequence but alike in appearance are matched and
// verified as well, so the model closes when the path returns (SelectLoopPairs).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "matching/matching_types.h"

namespace proj {

struct RetrievalOptions {
  int vocabulary_size = 256;              // visual words (k-means centres)
  int max_training_descriptors = 20000;   // k-means sample, spread over the images
  int max_descriptors_per_image = 1000;   // evenly spaced over an image's list
  int kmeans_iterations = 8;
  uint64_t seed = 0;
  int num_threads = 0;                    // <= 0: all hardware threads
  void Check() const;                     // throws InputError naming the field
};

// Descriptors of one image: 128 bytes each, back to back (FeatureSet::descriptors).
using DescriptorList = std::vector<uint8_t>;
// Returns the descriptors of image `index` (0 .. num_images - 1); called from one thread at a
// time, each image at most twice (sampling, then encoding).
using DescriptorSource = std::function<DescriptorList(int index)>;

// One L2-normalised tf-idf vector per image (all zero for an image without descriptors).
// Images are read one at a time: memory holds the training sample and the vectors only.
std::vector<std::vector<float>> ComputeImageVectors(int num_images, const DescriptorSource& source,
                                                    const RetrievalOptions& options);

// Dot product of two image vectors (1: identical word distributions, 0: no word in common).
float ImageSimilarity(const std::vector<float>& a, const std::vector<float>& b);

struct LoopPairOptions {
  int query_period = 5;     // every n-th image of the order queries (0, n, 2n, ... and the last)
  int num_candidates = 5;   // the most similar images it is paired with ...
  int min_gap = 10;         // ... among those at least this many positions away in the order
  double min_similarity = 0.05;  // and at least this similar
  void Check() const;
};

// Each query's num_candidates most similar images (similarity >= min_similarity) among those
// eligible(query, other) allows: pairs of indices into `vectors`, image1 < image2, each once,
// sorted.
std::vector<ImagePair> MostSimilarPairs(const std::vector<std::vector<float>>& vectors,
                                        const std::vector<int>& queries, int num_candidates,
                                        double min_similarity,
                                        const std::function<bool(int, int)>& eligible);

// Pairs (image1 < image2, indices into `vectors`, which are in sequence order) between images
// far apart in the sequence that look alike, each once, sorted: MostSimilarPairs of the
// queries 0, query_period, 2 query_period, ... and the last, among images min_gap or more
// positions away.
std::vector<ImagePair> SelectLoopPairs(const std::vector<std::vector<float>>& vectors,
                                       const LoopPairOptions& options);

}  // namespace proj
