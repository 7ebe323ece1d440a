// Memory for tensors: a pooled CPU allocator and the Storage blocks it hands
// out.
//
// Design (after TVM's PooledAllocator, our own code):
// - Every block is 64-byte aligned (AVX-512 loads, cache lines).
// - A request is rounded up to a size class and a freed block goes to the
//   free list of its class; the next request of that class reuses it without
//   touching the system allocator. Size classes: multiples of 64 bytes up to
//   256 bytes, then quarter steps between powers of two (256, 320, 384, 448,
//   512, 640, ...), so at most 25% of a block is slack while requests of
//   slightly different dynamic sizes (sequence length 37, then 38) still
//   share a class.
// - Cached blocks are kept until ReleaseCached(); when the system runs out of
//   memory the pool releases its cache and retries once.
// - Thread-safe (one mutex): kernels may allocate workspace from parallel
//   bodies.
// - Stats count bytes in rounded sizes, i.e. the memory actually held.
//
// A Storage is one block owned by a shared_ptr: when the last NDArray view of
// it goes away, its destructor returns the block to its allocator. An
// allocator must therefore outlive its storage; Allocator::Global() is never
// destroyed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rlx/runtime/device.h"
#include "rlx/runtime/object.h"

namespace rlx::runtime {

inline constexpr size_t kAllocAlignment = 64;

// One block of device memory: `size` is the rounded size actually reserved.
struct Buffer {
  void* data = nullptr;
  size_t size = 0;
  Device device;
};

class Allocator {
 public:
  struct Stats {
    int64_t live_bytes = 0;    // bytes in blocks handed out and not yet freed
    int64_t peak_bytes = 0;    // the maximum live_bytes ever reached
    int64_t total_allocs = 0;  // Alloc calls
    int64_t pool_hits = 0;     // Alloc calls served from a free list
    int64_t cached_bytes = 0;  // bytes in free lists, held for reuse
  };

  virtual ~Allocator() = default;
  // A block of at least nbytes, kAllocAlignment-aligned. Throws RuntimeError
  // when memory is exhausted.
  virtual Buffer Alloc(size_t nbytes) = 0;
  // Returns a block from Alloc of this allocator.
  virtual void Free(const Buffer& buffer) = 0;
  virtual Device device() const = 0;
  virtual Stats GetStats() const = 0;

  // The process-wide pooled CPU allocator.
  static Allocator* Global();
};

class PooledAllocator final : public Allocator {
 public:
  PooledAllocator() = default;
  // Frees the cached blocks; blocks still live are leaked (a bug of the owner).
  ~PooledAllocator() override;
  PooledAllocator(const PooledAllocator&) = delete;
  PooledAllocator& operator=(const PooledAllocator&) = delete;

  Buffer Alloc(size_t nbytes) override;
  void Free(const Buffer& buffer) override;
  Device device() const override { return Device::CPU(); }
  Stats GetStats() const override;

  // Returns every cached block to the system.
  void ReleaseCached();
  // Starts peak_bytes again from the current live_bytes.
  void ResetPeak();

  // The size class of a request: see the design note above.
  static size_t RoundedSize(size_t nbytes);

 private:
  void* TakeCachedLocked(size_t rounded);
  void ReleaseCachedLocked();

  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_lists_;
  Stats stats_;
};

// A block of memory owned by reference count; NDArrays view it.
class Storage final : public Object {
 public:
  // Allocates nbytes on `device` from `allocator` (nullptr: the global CPU
  // allocator). Throws RuntimeError for a device the allocator does not serve.
  static std::shared_ptr<Storage> Create(size_t nbytes, Device device = Device::CPU(),
                                         Allocator* allocator = nullptr);

  // Takes ownership of `buffer`, a block from `allocator` of which the first
  // nbytes were requested.
  Storage(Buffer buffer, size_t nbytes, Allocator* allocator)
      : buffer_(buffer), nbytes_(nbytes), allocator_(allocator) {}
  ~Storage() override;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return buffer_.data; }
  // The requested size; views must lie within it.
  size_t size() const { return nbytes_; }
  // The reserved block size (size() rounded up to its class).
  size_t capacity() const { return buffer_.size; }
  Device device() const { return buffer_.device; }
  static constexpr std::string_view kTypeName = "Storage";
  std::string_view type_name() const override { return kTypeName; }

 private:
  Buffer buffer_;
  size_t nbytes_;
  Allocator* allocator_;
};

}  // namespace rlx::runtime
