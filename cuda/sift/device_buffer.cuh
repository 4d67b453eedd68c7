// RAII owners of device and pinned host memory. Capacity only grows (Reserve), so callers
// that reuse one buffer across images allocate only when a larger image arrives.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda/cuda_check.cuh"
#include "cuda/device_memory.cuh"

namespace proj::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) { Reserve(count); }
  ~DeviceBuffer() { DeviceFree(data_, capacity_ * sizeof(T)); }  // unchecked: no throw here
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }

  // Ensures room for `count` elements; old contents are not kept when it grows.
  void Reserve(size_t count) {
    if (count <= capacity_) return;
    Release();
    PROJ_CUDA_CHECK(DeviceMalloc(&data_, count * sizeof(T)));
    capacity_ = count;
  }
  T* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  void Release() {
    T* data = data_;
    const size_t bytes = capacity_ * sizeof(T);
    data_ = nullptr;
    capacity_ = 0;
    PROJ_CUDA_CHECK(DeviceFree(data, bytes));
  }
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);  // unchecked: no throw here
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  void Reserve(size_t count) {
    if (count <= capacity_) return;
    Release();
    PROJ_CUDA_CHECK(cudaMallocHost(&data_, count * sizeof(T)));
    capacity_ = count;
  }
  T* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  void Release() {
    if (data_ != nullptr) PROJ_CUDA_CHECK(cudaFreeHost(data_));
    data_ = nullptr;
    capacity_ = 0;
  }
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace proj::cuda
