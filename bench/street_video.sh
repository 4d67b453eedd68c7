#!/usr/bin/env bash
# The synthetic street (sfm synth --street: 56 frames of 1226x370, 1 m per frame, a stop and a
# 90-degree turn) reconstructed from its image folder and from an MP4 of it, with each matcher,
# on the CPU (issue 16). The MP4 is made here by ffmpeg (H.264, CRF 12, 10 fps), never checked
# in; every frame is taken (--video-fps 0), and the ground truth is copied under the frames'
# names (VIDEO.NNNNNN.jpg) for `sfm evaluate`.
#
#   bench/street_video.sh SFM_BINARY OUT_DIR [MATCHERS...]     (default: klt sequential exhaustive)
#
# Prints one line per run: source, matcher, registered, median position error, max rotation
# error, CPU user+sys seconds and wall seconds (GNU time), peak RSS.
set -euo pipefail
sfm=$(realpath "$1")
out=$2
shift 2
matchers=("$@")
[ ${#matchers[@]} -gt 0 ] || matchers=(klt sequential exhaustive)
command -v ffmpeg >/dev/null || { echo "ffmpeg is needed (apt-get install ffmpeg)" >&2; exit 2; }
mkdir -p "$out"
street=$out/street
[ -d "$street/images" ] || "$sfm" synth "$street" --street >/dev/null
video_dir=$out/video
mkdir -p "$video_dir" "$out/gt_video"
video=$video_dir/street.mp4
[ -f "$video" ] || ffmpeg -loglevel error -y -framerate 10 -i "$street/images/%04d.jpg" -c:v libx264 \
  -crf 12 -pix_fmt yuv420p "$video"
n=$(ls "$street/images" | grep -c '\.jpg$')
for ((k = 0; k < n; ++k)); do
  cp "$street/gt_dense_cameras/$(printf %04d $k).jpg.camera" "$out/gt_video/street.mp4.$(printf %06d $k).jpg.camera"
done

run() {  # source-name input gt matcher
  local name=$1 input=$2 gt=$3 matcher=$4
  local dir=$out/${name}_$matcher
  rm -rf "$dir"
  /usr/bin/time -f "%U %S %e %M" -o "$dir.time" "$sfm" reconstruct "$input" -o "$dir" \
    --matcher "$matcher" --device cpu --video-fps 0 >"$dir.log" 2>&1 || true
  local evaluation
  evaluation=$("$sfm" evaluate "$dir/model" --gt "$gt" 2>&1 || true)
  local registered median rotation
  registered=$(echo "$evaluation" | sed -n 's/^registered: //p')
  median=$(echo "$evaluation" | sed -n 's/.*median \([0-9.]*\), mean.*/\1/p' | head -1)
  rotation=$(echo "$evaluation" | sed -n 's/^rotation error.*max \([0-9.]*\).*/\1/p')
  read -r user sys wall rss <"$dir.time"
  printf '%-7s %-11s registered %-6s median position %7s mm  max rotation %7s deg  cpu %7.1f s  wall %7.1f s  peak %5d MiB\n' \
    "$name" "$matcher" "${registered:-0}" "${median:--}" "${rotation:--}" "$(echo "$user + $sys" | bc)" \
    "$wall" $((rss / 1024))
}

for matcher in "${matchers[@]}"; do
  run folder "$street/images" "$street/gt_dense_cameras" "$matcher"
  run video "$video" "$out/gt_video" "$matcher"
done
