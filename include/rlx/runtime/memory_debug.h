// Run-time checks of memory planning (debug mode).
//
// When enabled (RLX_DEBUG_MEMORY=1 in the environment, read once, or
// SetMemoryDebug(true)), the VM's memory builtins report to a process-wide
// tracker:
// - vm.builtin.alloc_tensor registers each tensor it places in a storage,
//   with its byte range, and vm.builtin.reshape each view of a registered
//   tensor. A tensor is alive while some NDArray handle of it exists (a
//   register, a tuple, a caller's argument); R.vm.kill_object clears its
//   register. Placing a tensor whose bytes overlap a live tensor of the
//   same storage is a RuntimeError naming both: static-plan-block-memory
//   shared bytes between tensors alive at the same time.
// - Released memory is filled with NaN (every byte 0xFF, a quiet NaN in
//   float16/32/64 and all-ones integers): a storage when its last reference
//   goes (before the block returns to the pool), and the bytes of a dead
//   tensor of a live storage when the next tensor is placed in that storage.
//   A kernel that reads memory it did not write, or a tensor used after the
//   planner released it, then yields NaN instead of a plausible stale value.
// Off by default: the checks cost a map lookup per allocation and a memset
// per release.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rlx/runtime/ndarray.h"

namespace rlx::runtime {

bool MemoryDebugEnabled();
void SetMemoryDebug(bool enabled);

namespace memory_debug {

// A tensor placed in its storage by alloc_tensor: checked, then registered.
void OnTensorPlaced(const NDArray& tensor);
// A view of `base` (a reshape): registered when `base` is.
void OnViewCreated(const NDArray& base, const NDArray& view);
// A storage about to be returned to its allocator: filled, forgotten.
void OnStorageReleased(const Storage* storage, void* data, size_t nbytes);

}  // namespace memory_debug
}  // namespace rlx::runtime
