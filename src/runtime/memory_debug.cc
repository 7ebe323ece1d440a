// The memory-plan verifier of rlx/runtime/memory_debug.h.
//
// The tracker maps each storage to the tensors registered in it: a weak
// handle of each tensor's NDArray (expired = dead), its byte range and a
// description for messages. Placing a tensor first fills and drops the dead
// entries of its storage (a dead range still covered by a live tensor, a
// view's base, is not filled), then checks the new range against the live
// ones. One mutex guards the map: kernels may run in parallel, the VM calls
// the builtins from one thread per frame.
#include "rlx/runtime/memory_debug.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rlx/runtime/allocator.h"
#include "rlx/runtime/error.h"

namespace rlx::runtime {
namespace {

constexpr unsigned char kNaNByte = 0xFF;

std::atomic<int>& DebugFlag() {
  static std::atomic<int> flag = [] {
    const char* env = std::getenv("RLX_DEBUG_MEMORY");
    return env != nullptr && env[0] != '\0' && std::strcmp(env, "0") != 0 ? 1 : 0;
  }();
  return flag;
}

struct Placement {
  std::weak_ptr<const void> handle;
  uint64_t begin = 0;
  uint64_t end = 0;
  std::string description;

  bool Overlaps(uint64_t other_begin, uint64_t other_end) const {
    return begin < other_end && other_begin < end && begin < end && other_begin < other_end;
  }
};

class Tracker {
 public:
  static Tracker& Get() {
    static Tracker* tracker = new Tracker();  // never destroyed: storages may die at exit
    return *tracker;
  }

  void Place(const NDArray& tensor) {
    const Storage* storage = tensor.storage().get();
    auto [begin, end] = RangeOf(tensor);
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Placement>& placements = placements_[storage];
    ReleaseDead(storage, &placements);
    for (const Placement& live : placements) {
      if (!live.Overlaps(begin, end)) continue;
      throw RuntimeError(StrCat("memory plan verifier: ", Describe(tensor), " at bytes [", begin, ", ", end,
                                ") of its storage overlaps the live ", live.description, " at bytes [", live.begin,
                                ", ", live.end, ")"));
    }
    placements.push_back(Placement{tensor.WeakHandle(), begin, end, Describe(tensor)});
  }

  void AddView(const NDArray& base, const NDArray& view) {
    const Storage* storage = view.storage().get();
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = placements_.find(storage);
    if (it == placements_.end()) return;
    auto [begin, end] = RangeOf(view);
    (void)base;
    it->second.push_back(Placement{view.WeakHandle(), begin, end, Describe(view)});
  }

  void ReleaseStorage(const Storage* storage, void* data, size_t nbytes) {
    std::memset(data, kNaNByte, nbytes);
    std::lock_guard<std::mutex> lock(mutex_);
    placements_.erase(storage);
  }

 private:
  static std::pair<uint64_t, uint64_t> RangeOf(const NDArray& tensor) {
    auto begin = static_cast<uint64_t>(static_cast<const char*>(tensor.data()) -
                                       static_cast<const char*>(tensor.storage()->data()));
    return {begin, begin + tensor.ByteSize()};
  }

  static std::string Describe(const NDArray& tensor) {
    return StrCat("tensor ", ShapeToString(tensor.shape()), " ", tensor.dtype().ToString());
  }

  // Fills the bytes of dead placements no live one covers, and drops them.
  static void ReleaseDead(const Storage* storage, std::vector<Placement>* placements) {
    std::vector<Placement> live;
    std::vector<Placement> dead;
    for (Placement& placement : *placements) {
      (placement.handle.expired() ? dead : live).push_back(std::move(placement));
    }
    auto* base = static_cast<unsigned char*>(storage->data());
    for (const Placement& released : dead) {
      bool still_viewed = false;
      for (const Placement& other : live) still_viewed = still_viewed || other.Overlaps(released.begin, released.end);
      if (!still_viewed) std::memset(base + released.begin, kNaNByte, released.end - released.begin);
    }
    *placements = std::move(live);
  }

  std::mutex mutex_;
  std::unordered_map<const Storage*, std::vector<Placement>> placements_;
};

}  // namespace

bool MemoryDebugEnabled() { return DebugFlag().load(std::memory_order_relaxed) != 0; }

void SetMemoryDebug(bool enabled) { DebugFlag().store(enabled ? 1 : 0, std::memory_order_relaxed); }

namespace memory_debug {

void OnTensorPlaced(const NDArray& tensor) { Tracker::Get().Place(tensor); }

void OnViewCreated(const NDArray& base, const NDArray& view) { Tracker::Get().AddView(base, view); }

void OnStorageReleased(const Storage* storage, void* data, size_t nbytes) {
  Tracker::Get().ReleaseStorage(storage, data, nbytes);
}

}  // namespace memory_debug
}  // namespace rlx::runtime
