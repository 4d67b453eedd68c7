// Parallel loops. ParallelFor: minimal parallel loop over [begin, end) on `num_threads` std::threads with dynamic
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

// Items 0..count-1 in two steps: prepare(i) on the calling thread, in increasing i (reading
// input, which must not run concurrently), then run(i, worker) on one of `num_workers`
// threads (worker in [0, num_workers)), dynamically: each prepared item goes to the first
// worker free. At most `max_waiting` (>= 1) prepared items wait for a worker, so preparing
// overlaps running while memory stays bounded. An exception from prepare or run stops the
// loop: nothing more is prepared or started, runs under way finish, prepared items not
// started are dropped, and the first exception is rethrown on the calling thread.
void PipelinedFor(int count, int num_workers, int max_waiting, const std::function<void(int index)>& prepare,
                  const std::function<void(int index, int worker)>& run);

}  // namespace proj
