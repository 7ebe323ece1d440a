// The std::thread pool (design in thread_pool.h).
#include "thread_pool.h"

namespace rlx::runtime {

ThreadPool::ThreadPool(int num_threads) {
  for (int participant = 1; participant < num_threads; ++participant) {
    workers_.emplace_back([this, participant] { WorkerLoop(participant); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::RunShare(int participant) const {
  for (int chunk = participant; chunk < num_chunks_; chunk += num_threads()) (*task_)(chunk);
}

void ThreadPool::Run(int num_chunks, const std::function<void(int)>& task) {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    num_chunks_ = num_chunks;
    busy_workers_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  work_ready_.notify_all();
  RunShare(0);
  std::unique_lock<std::mutex> lock(mutex_);
  work_done_.wait(lock, [this] { return busy_workers_ == 0; });
  task_ = nullptr;
}

void ThreadPool::WorkerLoop(int participant) {
  uint64_t seen_generation = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen_generation; });
      if (stopping_) return;
      seen_generation = generation_;
    }
    RunShare(participant);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_workers_ == 0) work_done_.notify_one();
  }
}

}  // namespace rlx::runtime
