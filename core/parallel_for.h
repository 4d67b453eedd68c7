// Minimal parallel loop over [begin, end) on `num_threads` std::threads with dynamic
// scheduling (work items taken one at a time from an atomic counter), so uneven items
// (image pairs, keypoints) balance. num_threads <= 0 means all hardware threads.
// `body(index, worker)` must be thread-safe; worker is in [0, threads) for per-thread scratch.
// An exception thrown by a body is rethrown on the calling thread after all workers stop.
#pragma once

#include <functional>

namespace proj {

int ResolveNumThreads(int num_threads);

void ParallelFor(int begin, int end, int num_threads,
                 const std::function<void(int index, int worker)>& body);

}  // namespace proj
