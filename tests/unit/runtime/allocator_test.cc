// The pooled allocator: size classes, reuse of freed blocks, alignment, the
// live/peak statistics, and Storage returning its block on release.
#include "rlx/runtime/allocator.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "rlx/runtime/ndarray.h"

namespace rlx::runtime {
namespace {

TEST(PooledAllocatorTest, SizeClassesWasteAtMostAQuarter) {
  EXPECT_EQ(PooledAllocator::RoundedSize(0), 64u);
  EXPECT_EQ(PooledAllocator::RoundedSize(1), 64u);
  EXPECT_EQ(PooledAllocator::RoundedSize(64), 64u);
  EXPECT_EQ(PooledAllocator::RoundedSize(65), 128u);
  EXPECT_EQ(PooledAllocator::RoundedSize(256), 256u);
  EXPECT_EQ(PooledAllocator::RoundedSize(257), 320u);
  EXPECT_EQ(PooledAllocator::RoundedSize(1000), 1024u);
  EXPECT_EQ(PooledAllocator::RoundedSize(1025), 1280u);
  EXPECT_EQ(PooledAllocator::RoundedSize(3 << 20), 3u << 20);
  for (size_t n = 1; n < (1u << 22); n = n * 3 / 2 + 1) {
    size_t rounded = PooledAllocator::RoundedSize(n);
    EXPECT_GE(rounded, n);
    EXPECT_EQ(rounded % kAllocAlignment, 0u) << n;
    if (n > 256) {
      EXPECT_LE(rounded, n + n / 4) << n;
    }
    EXPECT_EQ(PooledAllocator::RoundedSize(rounded), rounded) << "classes are fixed points: " << n;
  }
}

TEST(PooledAllocatorTest, FreedBlocksAreReused) {
  PooledAllocator allocator;
  Buffer first = allocator.Alloc(1000);
  EXPECT_EQ(first.size, 1024u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first.data) % kAllocAlignment, 0u);
  allocator.Free(first);
  // 990 bytes fall in the same class: the same block comes back.
  Buffer second = allocator.Alloc(990);
  EXPECT_EQ(second.data, first.data);
  // A different class needs a new block.
  Buffer third = allocator.Alloc(5000);
  EXPECT_NE(third.data, first.data);
  Allocator::Stats stats = allocator.GetStats();
  EXPECT_EQ(stats.total_allocs, 3);
  EXPECT_EQ(stats.pool_hits, 1);
  allocator.Free(second);
  allocator.Free(third);
}

TEST(PooledAllocatorTest, TracksLiveAndPeakBytes) {
  PooledAllocator allocator;
  Buffer a = allocator.Alloc(100);   // 128
  Buffer b = allocator.Alloc(1000);  // 1024
  EXPECT_EQ(allocator.GetStats().live_bytes, 128 + 1024);
  allocator.Free(b);
  Buffer c = allocator.Alloc(64);  // 64
  Allocator::Stats stats = allocator.GetStats();
  EXPECT_EQ(stats.live_bytes, 128 + 64);
  EXPECT_EQ(stats.peak_bytes, 128 + 1024);
  EXPECT_EQ(stats.cached_bytes, 1024);
  allocator.ResetPeak();
  EXPECT_EQ(allocator.GetStats().peak_bytes, 128 + 64);
  allocator.Free(a);
  allocator.Free(c);
  EXPECT_EQ(allocator.GetStats().live_bytes, 0);
  allocator.ReleaseCached();
  EXPECT_EQ(allocator.GetStats().cached_bytes, 0);
  // After ReleaseCached nothing is reused.
  Buffer d = allocator.Alloc(100);
  EXPECT_EQ(allocator.GetStats().pool_hits, 0);
  allocator.Free(d);
}

TEST(PooledAllocatorTest, StorageReturnsItsBlockWhenTheLastViewGoes) {
  PooledAllocator allocator;
  void* first_block = nullptr;
  {
    NDArray array = NDArray::Empty({16, 16}, DataType::Float(32), Device::CPU(), &allocator);
    NDArray view = array.CreateView({4}, DataType::Float(32), 64);
    first_block = array.data();
    EXPECT_EQ(allocator.GetStats().live_bytes, 1024);
    array = NDArray();
    EXPECT_EQ(allocator.GetStats().live_bytes, 1024) << "the view still holds the storage";
  }
  EXPECT_EQ(allocator.GetStats().live_bytes, 0);
  NDArray again = NDArray::Empty({256}, DataType::Int(32), Device::CPU(), &allocator);
  EXPECT_EQ(again.data(), first_block);
  EXPECT_EQ(allocator.GetStats().pool_hits, 1);
}

TEST(PooledAllocatorTest, StorageKnowsRequestedAndReservedSize) {
  PooledAllocator allocator;
  std::shared_ptr<Storage> storage = Storage::Create(300, Device::CPU(), &allocator);
  EXPECT_EQ(storage->size(), 300u);
  EXPECT_EQ(storage->capacity(), 320u);
  EXPECT_EQ(storage->type_name(), "Storage");
}

TEST(PooledAllocatorTest, IsSafeAcrossThreads) {
  PooledAllocator allocator;
  auto churn = [&] {
    for (int i = 0; i < 2000; ++i) {
      Buffer buffer = allocator.Alloc(64 * (1 + i % 5));
      static_cast<char*>(buffer.data)[0] = 1;
      allocator.Free(buffer);
    }
  };
  std::thread a(churn), b(churn);
  a.join();
  b.join();
  Allocator::Stats stats = allocator.GetStats();
  EXPECT_EQ(stats.live_bytes, 0);
  EXPECT_EQ(stats.total_allocs, 4000);
  EXPECT_GT(stats.pool_hits, 3900);
}

TEST(PooledAllocatorTest, GlobalIsPooled) {
  Allocator* global = Allocator::Global();
  EXPECT_EQ(global, Allocator::Global());
  EXPECT_TRUE(global->device().is_cpu());
  int64_t hits = global->GetStats().pool_hits;
  { NDArray::Empty({123457}, DataType::Int(8)); }
  { NDArray::Empty({123457}, DataType::Int(8)); }
  EXPECT_GE(global->GetStats().pool_hits, hits + 1);
}

}  // namespace
}  // namespace rlx::runtime
