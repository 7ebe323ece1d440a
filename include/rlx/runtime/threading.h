// Parallel loops for kernels and builtins.
//
// parallel_for(begin, end, body) splits [begin, end) into at most
// NumThreads() contiguous chunks of nearly equal size and runs body(lo, hi)
// on each, in parallel; the calling thread takes part. Generated kernels reach
// the same machinery through the C entry rlx_parallel_for (c_abi.h).
//
// - Backends: OpenMP (libgomp) when the runtime was built with it, otherwise
//   a pool of std::threads that is created on first use and kept. Both are
//   always selectable where available (SetThreadingBackend), so both are
//   tested.
// - Thread count: RLX_NUM_THREADS if set (a positive integer; anything else
//   is a RuntimeError), otherwise the hardware concurrency. SetNumThreads
//   overrides it for the process; SetNumThreads(0) re-reads the environment.
// - Errors are never lost: if a body throws, the other chunks still finish
//   (work already started cannot be recalled), then the first exception is
//   rethrown in the caller. rlx_parallel_for reports a body's nonzero return
//   the same way, with the message the body gave rlx_set_last_error.
// - A parallel_for inside a parallel body runs serially in its thread (no
//   nested teams, no deadlock on the pool).
#pragma once

#include <cstdint>
#include <functional>

namespace rlx::runtime {

enum class ThreadingBackend { kOpenMP, kThreadPool };

// Runs body(lo, hi) over disjoint chunks covering [begin, end); nothing when
// end <= begin. Chunks hold at least min_chunk iterations (except a short
// range's only chunk).
void parallel_for(int64_t begin, int64_t end, const std::function<void(int64_t, int64_t)>& body,
                  int64_t min_chunk = 1);

// The number of threads a parallel_for uses.
int NumThreads();
// Overrides the thread count; n <= 0 goes back to RLX_NUM_THREADS / the
// hardware concurrency.
void SetNumThreads(int n);

ThreadingBackend GetThreadingBackend();
// RuntimeError when `backend` is OpenMP and the runtime was built without it.
void SetThreadingBackend(ThreadingBackend backend);
bool HasOpenMP();

// True while the calling thread runs a parallel_for body.
bool InParallelRegion();

}  // namespace rlx::runtime
