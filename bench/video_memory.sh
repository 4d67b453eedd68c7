#!/usr/bin/env bash
# Benchmark (not a test): peak memory of reading a video does not grow with its length.
# Makes a 1-minute and a 5-minute video by looping the synthetic 80-frame sequence (`sfm synth
# --sequence`, 640x480, encoded at 10 fps: 8 s, looped), runs `sfm extract VIDEO` (frames
# decoded by ffmpeg, picked at --video-fps, written beside the database, features extracted)
# on each under /usr/bin/time -v and prints a markdown row per video: frames picked, peak
# resident memory of sfm (the largest of sfm and the ffmpeg/ffprobe it ran and waited for:
# what the kernel's ru_maxrss reports), ffmpeg's own peak decoding the same way, wall time.
#
#   bench/video_memory.sh SFM_BINARY [WORK_DIR] [VIDEO_FPS]
#       WORK_DIR defaults to /tmp/sfm-video-memory, VIDEO_FPS to 1. MINUTES="1 5" picks the
#       lengths. STAGE=reconstruct measures `sfm reconstruct --matcher sequential` instead
#       (mapping memory grows with the number of frames, as for photos).
set -euo pipefail
sfm=$(realpath "$1")
work=${2:-/tmp/sfm-video-memory}
fps=${3:-1}
minutes=${MINUTES:-"1 5"}
stage=${STAGE:-extract}
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/scripts/apt_install.sh" ffmpeg time

mkdir -p "$work"
if [ ! -f "$work/sequence.mp4" ]; then
  "$sfm" synth "$work/scene" --sequence --width 640 --height 480 --quiet >/dev/null
  ffmpeg -nostdin -v error -y -framerate 10 -i "$work/scene/images/%04d.jpg" -c:v libx264 -crf 18 \
    -pix_fmt yuv420p "$work/sequence.mp4"
fi

echo "| video | frames picked (--video-fps $fps) | sfm peak RSS MiB | ffmpeg peak RSS MiB | wall s |"
echo "|---|---|---|---|---|"
for m in $minutes; do
  video="$work/loop_${m}min.mp4"
  [ -f "$video" ] || ffmpeg -nostdin -v error -y -stream_loop -1 -i "$work/sequence.mp4" -t $((m * 60)) \
    -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p "$video"
  out="$work/run_${m}min"
  rm -rf "$out"; mkdir -p "$out"
  # ffmpeg's own peak, decoding the same way sfm asks it to.
  /usr/bin/time -v -o "$out/ffmpeg_time.txt" ffmpeg -nostdin -v error -i "$video" -map 0:v:0 \
    -vf "fps=$fps,showinfo=checksum=0" -fps_mode passthrough -pix_fmt rgb24 -c:v ppm -f image2pipe - \
    2>/dev/null >/dev/null
  if [ "$stage" = reconstruct ]; then
    args=(reconstruct "$video" -o "$out" --matcher sequential --overlap 5)
  else
    args=(extract "$video" --database "$out/database.db")
  fi
  /usr/bin/time -v -o "$out/time.txt" "$sfm" "${args[@]}" --device cpu --video-fps "$fps" --quiet \
    >"$out/log.txt" 2>&1
  peak=$(awk '/Maximum resident set size/ {printf "%.0f", $6 / 1024}' "$out/time.txt")
  ffmpeg_peak=$(awk '/Maximum resident set size/ {printf "%.0f", $6 / 1024}' "$out/ffmpeg_time.txt")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/time.txt")
  frames=$(ls "$out/frames" | grep -c '\.jpg$')
  echo "| ${m} min, 640x480, 10 fps | $frames | $peak | $ffmpeg_peak | $wall |"
done
