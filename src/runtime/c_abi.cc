// The runtime side of the C ABI (c_abi.h): last-error storage, the parallel
// loop and workspace memory that compiled kernels call back into.
//
// The last error is thread-local, like errno: a kernel sets it on the thread
// that then returns nonzero, and whoever sees the nonzero code reads it on the
// same thread. rlx_parallel_for moves a failed body's message from the worker
// thread to the calling thread.
//
// A workspace block carries a 64-byte prefix holding its Buffer size, so
// rlx_free_workspace(ptr) can return it to the pool without a lookup table.
#include "rlx/runtime/c_abi.h"

#include <cstring>
#include <string>

#include "rlx/runtime/allocator.h"
#include "rlx/runtime/error.h"
#include "rlx/runtime/threading.h"

namespace {

thread_local std::string last_error;

constexpr size_t kWorkspacePrefix = rlx::runtime::kAllocAlignment;

}  // namespace

extern "C" {

void rlx_set_last_error(const char* message) { last_error = message != nullptr ? message : ""; }

const char* rlx_get_last_error(void) { return last_error.c_str(); }

int rlx_parallel_for(int64_t n, RLXParallelBody body, void* closure) {
  using rlx::runtime::RuntimeError;
  try {
    rlx::runtime::parallel_for(0, n, [&](int64_t begin, int64_t end) {
      last_error.clear();
      int code = body(begin, end, closure);
      if (code != 0) {
        throw RuntimeError(last_error.empty() ? rlx::runtime::StrCat("parallel body returned error code ", code)
                                              : last_error);
      }
    });
    return 0;
  } catch (const std::exception& error) {
    rlx_set_last_error(error.what());
    return -1;
  }
}

void* rlx_alloc_workspace(int64_t nbytes) {
  try {
    if (nbytes < 0) throw rlx::runtime::RuntimeError(rlx::runtime::StrCat("negative workspace size ", nbytes));
    rlx::runtime::Buffer buffer = rlx::runtime::Allocator::Global()->Alloc(static_cast<size_t>(nbytes) + kWorkspacePrefix);
    std::memcpy(buffer.data, &buffer.size, sizeof(buffer.size));
    return static_cast<char*>(buffer.data) + kWorkspacePrefix;
  } catch (const std::exception& error) {
    rlx_set_last_error(error.what());
    return nullptr;
  }
}

void rlx_free_workspace(void* ptr) {
  if (ptr == nullptr) return;
  rlx::runtime::Buffer buffer;
  buffer.data = static_cast<char*>(ptr) - kWorkspacePrefix;
  std::memcpy(&buffer.size, buffer.data, sizeof(buffer.size));
  rlx::runtime::Allocator::Global()->Free(buffer);
}

const RLXRuntimeCallbacks* rlx_get_runtime_callbacks(void) {
  static const RLXRuntimeCallbacks callbacks = {rlx_parallel_for, rlx_set_last_error, rlx_alloc_workspace,
                                                rlx_free_workspace};
  return &callbacks;
}

}  // extern "C"
