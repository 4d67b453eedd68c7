#include "matching/klt_sequence_matcher.h"

#include <algorithm>
#include <utility>

#include "core/check.h"

namespace proj {
namespace {

std::vector<int> FrameGaps(const KltSequenceOptions& options) {
  std::vector<int> gaps;
  if (options.all_gaps) {
    for (int g = 1; g <= options.max_frame_gap; ++g) gaps.push_back(g);
  } else {
    for (int g = 1; g <= options.max_frame_gap; g *= 2) gaps.push_back(g);
  }
  return gaps;
}

// Matches between two frames' sorted track id lists (merge).
std::vector<FeatureMatch> MatchTracks(const std::vector<int>& ids1, const std::vector<int>& ids2) {
  std::vector<FeatureMatch> matches;
  size_t a = 0, b = 0;
  while (a < ids1.size() && b < ids2.size()) {
    if (ids1[a] < ids2[b]) {
      ++a;
    } else if (ids2[b] < ids1[a]) {
      ++b;
    } else {
      matches.push_back(FeatureMatch{static_cast<int>(a), static_cast<int>(b)});
      ++a;
      ++b;
    }
  }
  return matches;
}

// `process(f)` gives frame f to the tracker and returns its features.
void Track(int num_frames, const std::function<const std::vector<KltFeature>&(int)>& process,
           KltTracker* tracker, const KltSequenceOptions& options, const SequenceObserver& observer,
           SequenceCorrespondences* out) {
  options.Check();
  PROJ_REQUIRE(num_frames >= 0, "TrackSequence: negative frame count");
  PROJ_CHECK(tracker != nullptr, "TrackSequence needs a tracker");
  PROJ_CHECK(out != nullptr, "TrackSequence needs a result");
  tracker->Reset();
  const std::vector<int> gaps = FrameGaps(options);
  SequenceCorrespondences& result = *out;
  result = SequenceCorrespondences();
  result.keypoints.resize(num_frames);
  result.track_ids.resize(num_frames);
  result.pairs.reserve(static_cast<size_t>(num_frames) * gaps.size());  // never moved (observer)
  for (int f = 0; f < num_frames; ++f) {
    const std::vector<KltFeature>& features = process(f);
    std::vector<Keypoint>& keypoints = result.keypoints[f];
    std::vector<int>& ids = result.track_ids[f];
    keypoints.resize(features.size());
    ids.resize(features.size());
    for (size_t k = 0; k < features.size(); ++k) {
      Keypoint& keypoint = keypoints[k];
      keypoint.x = features[k].x;
      keypoint.y = features[k].y;
      keypoint.scale = 1.0f;
      ids[k] = features[k].track_id;
      PROJ_CHECK(k == 0 || ids[k] > ids[k - 1], "KLT features must be sorted by track id");
      result.num_tracks = std::max(result.num_tracks, ids[k] + 1);
    }
    for (int gap : gaps) {
      const int earlier = f - gap;
      if (earlier < 0) break;
      std::vector<FeatureMatch> matches = MatchTracks(result.track_ids[earlier], ids);
      if (static_cast<int>(matches.size()) < options.min_pair_matches) continue;
      result.pairs.push_back(PairMatches{ImagePair{earlier, f}, std::move(matches)});
    }
    if (observer) observer(f, result);
  }
}

SequenceCorrespondences Track(int num_frames,
                              const std::function<const std::vector<KltFeature>&(int)>& process,
                              KltTracker* tracker, const KltSequenceOptions& options) {
  SequenceCorrespondences result;
  Track(num_frames, process, tracker, options, {}, &result);
  return result;
}

}  // namespace

void KltSequenceOptions::Check() const {
  PROJ_REQUIRE(max_frame_gap >= 1, "KltSequenceOptions.max_frame_gap must be >= 1 (got " << max_frame_gap << ")");
  PROJ_REQUIRE(min_pair_matches >= 1,
               "KltSequenceOptions.min_pair_matches must be >= 1 (got " << min_pair_matches << ")");
}

SequenceCorrespondences TrackSequence(int num_frames, const FrameProvider& frames,
                                      KltTracker* tracker, const KltSequenceOptions& options) {
  GrayImage buffer;
  return Track(
      num_frames,
      [&](int f) -> const std::vector<KltFeature>& {
        frames(f, &buffer);
        return tracker->ProcessFrame(buffer);
      },
      tracker, options);
}

SequenceCorrespondences TrackSequence(const std::vector<GrayImage>& frames, KltTracker* tracker,
                                      const KltSequenceOptions& options) {
  return Track(
      static_cast<int>(frames.size()),
      [&](int f) -> const std::vector<KltFeature>& { return tracker->ProcessFrame(frames[f]); },
      tracker, options);
}

void TrackSequence(int num_frames, const Frame8Provider& frames, KltTracker* tracker,
                   const KltSequenceOptions& options, const SequenceObserver& observer,
                   SequenceCorrespondences* result) {
  Track(
      num_frames,
      [&](int f) -> const std::vector<KltFeature>& { return tracker->ProcessFrame(frames(f)); },
      tracker, options, observer, result);
}

SequenceCorrespondences TrackSequence(int num_frames, const FrameProvider& frames,
                                      const KltOptions& options,
                                      const KltSequenceOptions& sequence_options) {
  sequence_options.Check();
  std::unique_ptr<KltTracker> tracker = CreateKltTracker(options, sequence_options.device);
  return TrackSequence(num_frames, frames, tracker.get(), sequence_options);
}

SequenceCorrespondences TrackSequence(const std::vector<GrayImage>& frames, const KltOptions& options,
                                      const KltSequenceOptions& sequence_options) {
  sequence_options.Check();
  std::unique_ptr<KltTracker> tracker = CreateKltTracker(options, sequence_options.device);
  return TrackSequence(frames, tracker.get(), sequence_options);
}

}  // namespace proj
