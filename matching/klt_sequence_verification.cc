#include "matching/klt_sequence_verification.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "core/check.h"
#include "core/parallel_for.h"
#include "core/timer.h"
#include "features/image_preprocessing.h"

namespace proj {
namespace {

// Each frame's keypoints in original pixels and their verification points, made once per
// frame by the first pair that needs them (or at the end for frames in no pair).
class FramePoints {
 public:
  FramePoints(const std::vector<Camera>& cameras, const std::vector<double>& scales)
      : cameras_(cameras), scales_(scales), once_(cameras.size()), keypoints_(cameras.size()),
        points_(cameras.size()) {}

  // `tracked` (frame f's keypoints as tracked) must stay valid and unchanged until this returns.
  const TwoViewPoints& Get(int f, const std::vector<Keypoint>& tracked) {
    std::call_once(once_[f], [&] {
      FeatureSet scaled;
      scaled.keypoints = tracked;
      ScaleKeypoints(scales_.empty() ? 1.0 : scales_[f], &scaled);
      std::vector<Eigen::Vector2d> pixels;
      pixels.reserve(scaled.keypoints.size());
      for (const Keypoint& k : scaled.keypoints) pixels.emplace_back(k.x, k.y);
      points_[f] = MakeTwoViewPoints(cameras_[f], std::move(pixels));
      keypoints_[f] = std::move(scaled.keypoints);
    });
    return points_[f];
  }
  std::vector<Keypoint> TakeKeypoints(int f) { return std::move(keypoints_[f]); }

 private:
  const std::vector<Camera>& cameras_;
  const std::vector<double>& scales_;
  std::vector<std::once_flag> once_;
  std::vector<std::vector<Keypoint>> keypoints_;
  std::vector<TwoViewPoints> points_;
};

// One pair to verify: pointers into the tracking result, whose pairs and keypoint lists do
// not move (SequenceObserver), and into the pool's result deque.
struct PairTask {
  size_t index = 0;
  const PairMatches* pair = nullptr;
  const std::vector<Keypoint>* keypoints1 = nullptr;
  const std::vector<Keypoint>* keypoints2 = nullptr;
  TwoViewGeometry* result = nullptr;
};

// Worker threads verifying pairs in the order they are added. Finish waits for all of them;
// the destructor (also when tracking throws) drops those not started and joins. The first
// exception of a worker is rethrown by Finish.
class VerificationPool {
 public:
  VerificationPool(const TwoViewGeometryOptions& options, int num_threads, FramePoints* points)
      : options_(options), points_(points) {
    for (int t = 0; t < num_threads; ++t) AddThread();
  }
  void AddThread() { threads_.emplace_back([this] { Work(); }); }
  ~VerificationPool() {  // after Finish, or on an exception: pairs not started are dropped
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks_.clear();
    }
    Join();
  }
  VerificationPool(const VerificationPool&) = delete;
  VerificationPool& operator=(const VerificationPool&) = delete;

  void Add(size_t index, const PairMatches& pair, const std::vector<Keypoint>& keypoints1,
           const std::vector<Keypoint>& keypoints2) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      PROJ_CHECK(index == results_.size(), "pairs must be added in order");
      results_.emplace_back();
      tasks_.push_back(PairTask{index, &pair, &keypoints1, &keypoints2, &results_.back()});
    }
    ready_.notify_one();
  }

  // Waits for every pair added and returns their geometries in order.
  std::vector<TwoViewGeometry> Finish() {
    Join();
    if (error_) std::rethrow_exception(error_);
    return std::vector<TwoViewGeometry>(std::make_move_iterator(results_.begin()),
                                        std::make_move_iterator(results_.end()));
  }

 private:
  void Join() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
    for (std::thread& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

  void Work() {
    for (;;) {
      PairTask task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return closed_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = tasks_.front();
        tasks_.pop_front();
        if (error_) continue;  // drain after a failure
      }
      try {
        const ImagePair& pair = task.pair->pair;
        *task.result = EstimateListedPairGeometry(options_, task.index,
                                                  points_->Get(pair.image1, *task.keypoints1),
                                                  points_->Get(pair.image2, *task.keypoints2),
                                                  task.pair->matches);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }

  const TwoViewGeometryOptions options_;
  FramePoints* points_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<PairTask> tasks_;
  std::deque<TwoViewGeometry> results_;  // deque: adding never moves earlier results
  bool closed_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> threads_;
};

}  // namespace

void SequenceVerificationOptions::Check() const { two_view.Check(); }

VerifiedSequence TrackAndVerifySequence(int num_frames, const Frame8Provider& frames,
                                        const std::vector<Camera>& cameras,
                                        const std::vector<double>& keypoint_scales,
                                        KltTracker* tracker,
                                        const KltSequenceOptions& sequence_options,
                                        const SequenceVerificationOptions& options) {
  options.Check();
  PROJ_REQUIRE(num_frames >= 0, "TrackAndVerifySequence: negative frame count");
  PROJ_REQUIRE(cameras.size() == static_cast<size_t>(num_frames),
               "TrackAndVerifySequence: " << cameras.size() << " cameras for " << num_frames << " frames");
  PROJ_REQUIRE(keypoint_scales.empty() || keypoint_scales.size() == static_cast<size_t>(num_frames),
               "TrackAndVerifySequence: " << keypoint_scales.size() << " keypoint scales for "
                                          << num_frames << " frames");
  // Declared before the pool, so that on an exception the pool's threads are joined before
  // the frames and pairs they read are destroyed.
  VerifiedSequence result;
  FramePoints points(cameras, keypoint_scales);
  const int num_threads = ResolveNumThreads(options.num_threads);
  std::unique_ptr<VerificationPool> pool;
  // Pairs are appended in index order; hands over those not handed over yet.
  size_t handed_over = 0;
  const auto hand_over = [&](const SequenceCorrespondences& so_far) {
    for (; handed_over < so_far.pairs.size(); ++handed_over) {
      const PairMatches& pair = so_far.pairs[handed_over];
      pool->Add(handed_over, pair, so_far.keypoints[pair.pair.image1],
                so_far.keypoints[pair.pair.image2]);
    }
  };
  SequenceObserver observer;
  if (options.overlap) {
    // While tracking, one of the threads is the tracking thread: it feeds the GPU (or runs the
    // CPU tracker) and is the critical path, so it keeps a core of its own.
    pool = std::make_unique<VerificationPool>(options.two_view, std::max(1, num_threads - 1), &points);
    observer = [&](int, const SequenceCorrespondences& so_far) { hand_over(so_far); };
  }

  Timer timer;
  TrackSequence(num_frames, frames, tracker, sequence_options, observer, &result.correspondences);
  result.tracking_seconds = timer.ElapsedSeconds();
  timer.Restart();
  if (options.overlap) {
    if (num_threads > 1) pool->AddThread();
  } else {
    pool = std::make_unique<VerificationPool>(options.two_view, num_threads, &points);
    hand_over(result.correspondences);
  }
  result.geometries = pool->Finish();
  result.verification_seconds = timer.ElapsedSeconds();
  for (int f = 0; f < num_frames; ++f) {
    points.Get(f, result.correspondences.keypoints[f]);  // frames in no pair
    result.correspondences.keypoints[f] = points.TakeKeypoints(f);
  }
  return result;
}

}  // namespace proj
