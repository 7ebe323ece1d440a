// The pooled CPU allocator and Storage (design in allocator.h).
#include "rlx/runtime/allocator.h"

#include <bit>
#include <cstdlib>

#include "rlx/runtime/error.h"
#include "rlx/runtime/memory_debug.h"

namespace rlx::runtime {

namespace {

size_t RoundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

void* SystemAlloc(size_t rounded) { return std::aligned_alloc(kAllocAlignment, rounded); }

}  // namespace

Allocator* Allocator::Global() {
  // Never destroyed: storage released during static destruction must still
  // find its allocator.
  static PooledAllocator* global = new PooledAllocator();
  return global;
}

PooledAllocator::~PooledAllocator() { ReleaseCachedLocked(); }

size_t PooledAllocator::RoundedSize(size_t nbytes) {
  if (nbytes <= 256) return nbytes <= 64 ? 64 : RoundUp(nbytes, 64);
  size_t lower_power = std::bit_floor(nbytes - 1);  // nbytes lies in (lower_power, 2 * lower_power]
  return RoundUp(nbytes, lower_power / 4);
}

void* PooledAllocator::TakeCachedLocked(size_t rounded) {
  auto it = free_lists_.find(rounded);
  if (it == free_lists_.end() || it->second.empty()) return nullptr;
  void* data = it->second.back();
  it->second.pop_back();
  stats_.cached_bytes -= static_cast<int64_t>(rounded);
  ++stats_.pool_hits;
  return data;
}

Buffer PooledAllocator::Alloc(size_t nbytes) {
  size_t rounded = RoundedSize(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.total_allocs;
  void* data = TakeCachedLocked(rounded);
  if (data == nullptr) data = SystemAlloc(rounded);
  if (data == nullptr) {
    ReleaseCachedLocked();
    data = SystemAlloc(rounded);
  }
  if (data == nullptr) {
    throw RuntimeError(StrCat("out of memory: cannot allocate ", nbytes, " bytes (", stats_.live_bytes,
                              " bytes already in use)"));
  }
  stats_.live_bytes += static_cast<int64_t>(rounded);
  if (stats_.live_bytes > stats_.peak_bytes) stats_.peak_bytes = stats_.live_bytes;
  return Buffer{data, rounded, Device::CPU()};
}

void PooledAllocator::Free(const Buffer& buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_lists_[buffer.size].push_back(buffer.data);
  stats_.live_bytes -= static_cast<int64_t>(buffer.size);
  stats_.cached_bytes += static_cast<int64_t>(buffer.size);
}

Allocator::Stats PooledAllocator::GetStats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void PooledAllocator::ReleaseCached() {
  std::lock_guard<std::mutex> lock(mutex_);
  ReleaseCachedLocked();
}

void PooledAllocator::ReleaseCachedLocked() {
  for (auto& [size, blocks] : free_lists_) {
    for (void* data : blocks) std::free(data);
  }
  free_lists_.clear();
  stats_.cached_bytes = 0;
}

void PooledAllocator::ResetPeak() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_bytes = stats_.live_bytes;
}

std::shared_ptr<Storage> Storage::Create(size_t nbytes, Device device, Allocator* allocator) {
  if (allocator == nullptr) allocator = Allocator::Global();
  if (allocator->device() != device) {
    throw RuntimeError(StrCat("cannot allocate on ", device.ToString(), ": the allocator serves ",
                              allocator->device().ToString(), " (this runtime allocates on cpu only)"));
  }
  Buffer buffer = allocator->Alloc(nbytes);
  try {
    return std::make_shared<Storage>(buffer, nbytes, allocator);
  } catch (...) {
    allocator->Free(buffer);
    throw;
  }
}

Storage::~Storage() {
  if (MemoryDebugEnabled()) memory_debug::OnStorageReleased(this, buffer_.data, buffer_.size);
  allocator_->Free(buffer_);
}

}  // namespace rlx::runtime
