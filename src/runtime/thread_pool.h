// A fixed pool of std::threads that runs one batch of chunks at a time: the
// fallback backend of parallel_for (threading.h) when OpenMP is unavailable,
// and a selectable backend otherwise.
//
// Run(num_chunks, task) hands chunk c to participant c % num_threads, where
// the calling thread is participant 0 and the workers are 1..num_threads-1,
// then blocks until every chunk is done. The batch is published under a mutex
// with a generation counter that the workers wait on; the last worker to
// finish wakes the caller. One batch runs at a time (a second caller waits).
// `task` must not throw: parallel_for wraps it to collect exceptions.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace rlx::runtime {

class ThreadPool {
 public:
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()) + 1; }
  void Run(int num_chunks, const std::function<void(int)>& task);

 private:
  void WorkerLoop(int participant);
  void RunShare(int participant) const;

  std::mutex run_mutex_;  // one batch at a time
  std::mutex mutex_;      // guards the fields below
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  const std::function<void(int)>* task_ = nullptr;
  int num_chunks_ = 0;
  uint64_t generation_ = 0;
  int busy_workers_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace rlx::runtime
