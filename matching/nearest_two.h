// The two nearest neighbours of every descriptor of one set among those of another, by brute
// force on dot products of unit-norm descriptors (larger dot = closer), for the ratio test and
// the mutual cross-check of the CPU matcher (cpu_descriptor_matcher.h).
//
// Two implementations compute the same thing: a blocked Eigen GEMM followed by a scan of the
// dot matrix (any CPU), and an AVX2/FMA kernel that scans each register tile of dot products
// as soon as it is computed, so the dot matrix never goes through memory (x86-64 CPUs with
// AVX2 and FMA, chosen at run time: a build for baseline x86-64 still runs everywhere). They
// sum the 128 products in different orders, so a dot may differ in its last bit (~1e-7);
// neighbours and ties are otherwise resolved alike: the earlier index wins a tie for best,
// and a tie puts the tied value in `second`.
#pragma once

#include <vector>

#include "matching/root_sift.h"

namespace proj {

struct NearestTwo {
  float best = -2, second = -2;  // dot products; -2 (below any unit-vector dot) when absent
  int best_index = -1;
  void Offer(float dot, int index) {
    if (dot > best) {
      second = best;
      best = dot;
      best_index = index;
    } else if (dot > second) {
      second = dot;
    }
  }
};

// For each row i of `a`: its two nearest rows of `b` ((*rows)[i]); when `columns` is not
// null, for each row j of `b` its nearest rows of `a` ((*columns)[j]). Single-threaded.
void FindNearestTwo(const DescriptorMatrix& a, const DescriptorMatrix& b,
                    std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns);

// The implementations, for tests and benchmarks (FindNearestTwo picks one).
void FindNearestTwoGeneric(const DescriptorMatrix& a, const DescriptorMatrix& b,
                           std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns);
// True when this CPU runs FindNearestTwoAvx2 (x86-64 with AVX2 and FMA).
bool NearestTwoAvx2Available();
// Precondition: NearestTwoAvx2Available().
void FindNearestTwoAvx2(const DescriptorMatrix& a, const DescriptorMatrix& b,
                        std::vector<NearestTwo>* rows, std::vector<NearestTwo>* columns);

}  // namespace proj
