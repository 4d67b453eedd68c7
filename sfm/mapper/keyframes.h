// Keyframes of an ordered sequence (video frames, a drive; --matcher klt or sequential): the
// frames that add baseline. A car waiting at a light, a walker standing still or a camera
// turning on the spot gives frames that see the scene from (almost) where the last keyframe
// saw it; their rays meet at angles near zero, so they can neither start a model nor
// triangulate points, and a pair of them looks well-conditioned only through noise. The
// mapper starts and grows the model from keyframes only and registers the other frames
// afterwards by absolute pose, their observations joining existing points
// (SceneImage::keyframe, sfm/mapper/incremental_mapper.h).
//
// The rule, walking the frames in order from the first (a keyframe): frame f is compared with
// the last keyframe k on the tracks both see. Their parallax is the median angle between f's
// rays and k's rays after removing the rotation that best aligns them (Kabsch on the unit
// rays, refitted once without the rays more than 3x the median off): pure rotation and
// standing still give ~0, translation gives the angle the points move by, less what a
// rotation can mimic (moving sideways past points at one depth counts only through the
// spread of their depths; moving ahead counts fully), so it is a lower bound of the rays'
// triangulation angles. f becomes a
// keyframe when that parallax reaches min_parallax_deg. So that consecutive keyframes keep
// sharing tracks, when f shares fewer than min_shared_tracks tracks with k, or fewer than
// min_shared_fraction of the tracks k sees, the frame before f becomes a keyframe first (f
// itself when that is k), and f is compared with it.
#pragma once

#include <optional>
#include <vector>

#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"

namespace proj {

struct KeyframeOptions {
  // <= 0: every frame is a keyframe. The default keeps every frame that moves: a frame's
  // observations lengthen the baselines its tracks triangulate over, and KLT tracks are short
  // (synthetic street, 1 m per frame: 0.4 to 0.9 deg against the previous frame, 0.2 deg in
  // the turn, 3e-6 deg at the stop). Higher values drop moving frames too: faster mapping of
  // dense video, but fewer and narrower triangulations.
  double min_parallax_deg = 0.05;
  int min_shared_tracks = 60;
  double min_shared_fraction = 0.3;
  void Check() const;  // throws InputError naming the field
};

// Median rotation-compensated parallax (degrees) between two images on the tracks both see,
// under the scene's cameras (focal priors); nullopt when they share fewer than 8 tracks.
// *num_shared (optional) receives the number of shared tracks.
std::optional<double> RotationCompensatedParallaxDeg(const Scene& scene, const TrackSet& tracks,
                                                     int image1, int image2, int* num_shared = nullptr);

struct KeyframeSelection {
  std::vector<char> is_keyframe;  // by image id; images outside `order` are keyframes
  int num_keyframes = 0;          // among `order`
};

// `order`: the ordered images' ids, in sequence order.
KeyframeSelection SelectParallaxKeyframes(const Scene& scene, const TrackSet& tracks,
                                  const std::vector<int>& order, const KeyframeOptions& options);

// True when every element of `track` is in a keyframe; otherwise *keyframe_elements receives
// those that are (its storage reused).
bool KeyframeElements(const Scene& scene, const std::vector<TrackElement>& track,
                      std::vector<TrackElement>* keyframe_elements);

}  // namespace proj
