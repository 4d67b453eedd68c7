# Sourced by the flight benchmarks: samples the device's used memory (nvidia-smi, every
# 0.2 s) while a command runs, where there is a GPU: the GPU that CUDA_VISIBLE_DEVICES names
# when it names one by index (two runs side by side on a host of two GPUs), else every GPU.
#   gpu_sampler_start LOG; ...; gpu_sampler_stop    (prints the peak, or "n/a")
gpu_sampler_pid=""
gpu_sampler_log=""
gpu_sampler_start() {
  gpu_sampler_log=$1
  : > "$gpu_sampler_log"
  gpu_sampler_pid=""
  command -v nvidia-smi >/dev/null || return 0
  local which=()
  [[ ${CUDA_VISIBLE_DEVICES:-} =~ ^[0-9]+$ ]] && which=(--id="$CUDA_VISIBLE_DEVICES")
  (while true; do nvidia-smi "${which[@]}" --query-gpu=memory.used --format=csv,noheader,nounits; sleep 0.2; done) \
    > "$gpu_sampler_log" 2>/dev/null &
  gpu_sampler_pid=$!
}
gpu_sampler_stop() {
  if [ -n "$gpu_sampler_pid" ]; then
    kill "$gpu_sampler_pid" 2>/dev/null || true
    wait "$gpu_sampler_pid" 2>/dev/null || true
  fi
  if [ -s "$gpu_sampler_log" ]; then
    echo "$(sort -n "$gpu_sampler_log" | tail -1) MiB (device total, sampled)"
  else
    echo "n/a"
  fi
}
