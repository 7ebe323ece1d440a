// parallel_for on OpenMP or the thread pool (design in threading.h).
//
// Chunking is static: [begin, end) is cut into `chunks` contiguous ranges
// whose sizes differ by at most one, and chunk c goes to thread c. Kernels
// from the code generator are regular loops, so static chunks balance well
// and keep each thread on the same memory from call to call.
#include "rlx/runtime/threading.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>

#include "rlx/runtime/error.h"
#include "thread_pool.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace rlx::runtime {

namespace {

constexpr int kMaxThreads = 1024;

#ifdef _OPENMP
constexpr bool kHasOpenMP = true;
#else
constexpr bool kHasOpenMP = false;
#endif

std::atomic<int> configured_threads{0};  // 0: not read from the environment yet
std::atomic<ThreadingBackend> backend{kHasOpenMP ? ThreadingBackend::kOpenMP : ThreadingBackend::kThreadPool};
thread_local bool in_parallel_region = false;

int ThreadCountFromEnvironment() {
  const char* text = std::getenv("RLX_NUM_THREADS");
  if (text == nullptr || *text == '\0') {
    unsigned hardware = std::thread::hardware_concurrency();
    return std::clamp(static_cast<int>(hardware), 1, kMaxThreads);
  }
  std::string_view view(text);
  int count = 0;
  auto [ptr, ec] = std::from_chars(view.data(), view.data() + view.size(), count);
  if (ec != std::errc() || ptr != view.data() + view.size() || count < 1 || count > kMaxThreads) {
    throw RuntimeError(StrCat("RLX_NUM_THREADS must be an integer from 1 to ", kMaxThreads, ", got '", view, "'"));
  }
  return count;
}

// Marks the current thread as inside a parallel body for its lifetime.
class RegionGuard {
 public:
  RegionGuard() : outer_(in_parallel_region) { in_parallel_region = true; }
  ~RegionGuard() { in_parallel_region = outer_; }

 private:
  bool outer_;
};

// Keeps the first exception thrown by any chunk.
class FirstError {
 public:
  void Record(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::move(error);
  }
  void RethrowIfAny() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
};

// The pool for the current thread count; replaced (not resized) when the
// count changes, while callers still running on the old pool keep it alive.
std::shared_ptr<ThreadPool> PoolOfSize(int num_threads) {
  static std::mutex mutex;
  static auto* pool = new std::shared_ptr<ThreadPool>();  // never destroyed at exit
  std::lock_guard<std::mutex> lock(mutex);
  if (*pool == nullptr || (*pool)->num_threads() != num_threads) *pool = std::make_shared<ThreadPool>(num_threads);
  return *pool;
}

// Runs task(0) .. task(num_chunks - 1), one chunk per thread.
void RunChunks(int num_chunks, const std::function<void(int)>& task) {
#ifdef _OPENMP
  if (backend.load() == ThreadingBackend::kOpenMP) {
#pragma omp parallel num_threads(num_chunks)
    {
      int team_size = omp_get_num_threads();
      for (int chunk = omp_get_thread_num(); chunk < num_chunks; chunk += team_size) task(chunk);
    }
    return;
  }
#endif
  PoolOfSize(NumThreads())->Run(num_chunks, task);
}

}  // namespace

int NumThreads() {
  int count = configured_threads.load();
  if (count == 0) {
    count = ThreadCountFromEnvironment();
    configured_threads.store(count);
  }
  return count;
}

void SetNumThreads(int n) { configured_threads.store(n > 0 ? std::min(n, kMaxThreads) : ThreadCountFromEnvironment()); }

bool HasOpenMP() { return kHasOpenMP; }

ThreadingBackend GetThreadingBackend() { return backend.load(); }

void SetThreadingBackend(ThreadingBackend value) {
  if (value == ThreadingBackend::kOpenMP && !kHasOpenMP) {
    throw RuntimeError("the OpenMP threading backend is unavailable: the runtime was built without OpenMP");
  }
  backend.store(value);
}

bool InParallelRegion() { return in_parallel_region; }

void parallel_for(int64_t begin, int64_t end, const std::function<void(int64_t, int64_t)>& body, int64_t min_chunk) {
  if (end <= begin) return;
  int64_t total = end - begin;
  int64_t max_chunks = std::max<int64_t>(1, total / std::max<int64_t>(1, min_chunk));
  int num_chunks = static_cast<int>(std::min<int64_t>(NumThreads(), max_chunks));
  if (num_chunks == 1 || in_parallel_region) {
    RegionGuard guard;
    body(begin, end);
    return;
  }
  int64_t base = total / num_chunks, extra = total % num_chunks;
  FirstError first_error;
  auto run_chunk = [&](int chunk) {
    int64_t lo = begin + chunk * base + std::min<int64_t>(chunk, extra);
    int64_t hi = lo + base + (chunk < extra ? 1 : 0);
    RegionGuard guard;
    try {
      body(lo, hi);
    } catch (...) {
      first_error.Record(std::current_exception());
    }
  };
  RunChunks(num_chunks, run_chunk);
  first_error.RethrowIfAny();
}

}  // namespace rlx::runtime
