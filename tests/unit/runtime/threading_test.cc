// parallel_for and rlx_parallel_for on every available backend: chunks cover
// the range exactly once, the thread count follows RLX_NUM_THREADS, nested
// loops run serially, and errors from bodies reach the caller.
#include "rlx/runtime/threading.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "rlx/runtime/c_abi.h"
#include "rlx/runtime/error.h"

namespace rlx::runtime {
namespace {

using ::testing::HasSubstr;

// Sets RLX_NUM_THREADS for one test and restores the defaults afterwards.
class ScopedThreadEnv {
 public:
  explicit ScopedThreadEnv(const char* value) {
    setenv("RLX_NUM_THREADS", value, 1);
    SetNumThreads(0);
  }
  ~ScopedThreadEnv() {
    unsetenv("RLX_NUM_THREADS");
    SetNumThreads(0);
  }
};

std::vector<ThreadingBackend> AvailableBackends() {
  std::vector<ThreadingBackend> backends = {ThreadingBackend::kThreadPool};
  if (HasOpenMP()) backends.push_back(ThreadingBackend::kOpenMP);
  return backends;
}

class ThreadingTest : public ::testing::TestWithParam<ThreadingBackend> {
 protected:
  void SetUp() override { SetThreadingBackend(GetParam()); }
  void TearDown() override { SetThreadingBackend(AvailableBackends().back()); }
};

// Sums i over [begin, end) with parallel_for, checking each index is visited once.
int64_t ParallelSum(int64_t begin, int64_t end, std::set<std::thread::id>* threads = nullptr) {
  std::atomic<int64_t> sum{0};
  std::vector<std::atomic<int>> visits(static_cast<size_t>(std::max<int64_t>(0, end - begin)));
  std::mutex mutex;
  parallel_for(begin, end, [&](int64_t lo, int64_t hi) {
    EXPECT_TRUE(InParallelRegion());
    int64_t local = 0;
    for (int64_t i = lo; i < hi; ++i) {
      local += i;
      ++visits[static_cast<size_t>(i - begin)];
    }
    sum += local;
    std::lock_guard<std::mutex> lock(mutex);
    if (threads) threads->insert(std::this_thread::get_id());
  });
  for (const std::atomic<int>& count : visits) EXPECT_EQ(count.load(), 1);
  return sum.load();
}

int64_t SerialSum(int64_t begin, int64_t end) {
  int64_t sum = 0;
  for (int64_t i = begin; i < end; ++i) sum += i;
  return sum;
}

TEST_P(ThreadingTest, SumsMatchWithOneThread) {
  ScopedThreadEnv env("1");
  EXPECT_EQ(NumThreads(), 1);
  std::set<std::thread::id> threads;
  EXPECT_EQ(ParallelSum(0, 100000, &threads), SerialSum(0, 100000));
  EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_P(ThreadingTest, SumsMatchWithTwoThreads) {
  ScopedThreadEnv env("2");
  EXPECT_EQ(NumThreads(), 2);
  for (auto [begin, end] : {std::pair<int64_t, int64_t>{0, 100000}, {-7, 13}, {5, 6}, {0, 2}, {0, 3}, {10, 10}}) {
    std::set<std::thread::id> threads;
    EXPECT_EQ(ParallelSum(begin, end, &threads), SerialSum(begin, end)) << begin << ".." << end;
    EXPECT_LE(threads.size(), 2u);
    if (end - begin >= 2) {
      EXPECT_EQ(threads.size(), 2u) << "two chunks run on two threads";
    }
  }
  EXPECT_FALSE(InParallelRegion());
}

TEST_P(ThreadingTest, ManyThreadsOnSmallRanges) {
  SetNumThreads(5);
  for (int64_t n = 0; n < 20; ++n) EXPECT_EQ(ParallelSum(0, n), SerialSum(0, n)) << n;
  SetNumThreads(0);
}

TEST_P(ThreadingTest, MinChunkLimitsTheSplit) {
  SetNumThreads(4);
  std::atomic<int> chunks{0};
  parallel_for(0, 10, [&](int64_t lo, int64_t hi) {
    EXPECT_GE(hi - lo, 5);
    ++chunks;
  }, /*min_chunk=*/5);
  EXPECT_EQ(chunks.load(), 2);
  SetNumThreads(0);
}

TEST_P(ThreadingTest, NestedLoopsRunSeriallyInsideABody) {
  ScopedThreadEnv env("2");
  std::atomic<int64_t> sum{0};
  parallel_for(0, 4, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      std::thread::id outer = std::this_thread::get_id();
      parallel_for(0, 100, [&](int64_t inner_lo, int64_t inner_hi) {
        EXPECT_EQ(std::this_thread::get_id(), outer);
        EXPECT_EQ(inner_lo, 0);
        EXPECT_EQ(inner_hi, 100);
        sum += SerialSum(inner_lo, inner_hi);
      });
    }
  });
  EXPECT_EQ(sum.load(), 4 * SerialSum(0, 100));
}

TEST_P(ThreadingTest, ExceptionsFromBodiesReachTheCaller) {
  ScopedThreadEnv env("2");
  std::atomic<int> finished{0};
  try {
    parallel_for(0, 1000, [&](int64_t lo, int64_t hi) {
      if (lo <= 700 && 700 < hi) throw RuntimeError("index 700 is bad");
      ++finished;
    });
    FAIL() << "no exception";
  } catch (const RuntimeError& error) {
    EXPECT_STREQ(error.what(), "index 700 is bad");
  }
  EXPECT_EQ(finished.load(), 1) << "the other chunk still ran";
  // The pool is usable afterwards.
  EXPECT_EQ(ParallelSum(0, 1000), SerialSum(0, 1000));
}

struct SumClosure {
  std::atomic<int64_t> sum{0};
  int64_t fail_at = -1;
};

int SumBody(int64_t begin, int64_t end, void* closure) {
  auto* state = static_cast<SumClosure*>(closure);
  for (int64_t i = begin; i < end; ++i) {
    if (i == state->fail_at) {
      rlx_set_last_error("element 42 is negative");
      return 3;
    }
    state->sum += i;
  }
  return 0;
}

int SilentFailure(int64_t, int64_t, void*) { return 5; }

TEST_P(ThreadingTest, CEntrySumsAndReportsBodyErrors) {
  ScopedThreadEnv env("2");
  SumClosure ok;
  EXPECT_EQ(rlx_parallel_for(1000, SumBody, &ok), 0);
  EXPECT_EQ(ok.sum.load(), SerialSum(0, 1000));
  EXPECT_EQ(rlx_parallel_for(0, SumBody, &ok), 0);

  SumClosure failing;
  failing.fail_at = 42;
  rlx_set_last_error("");
  EXPECT_NE(rlx_parallel_for(1000, SumBody, &failing), 0);
  EXPECT_STREQ(rlx_get_last_error(), "element 42 is negative");

  EXPECT_NE(rlx_parallel_for(10, SilentFailure, nullptr), 0);
  EXPECT_STREQ(rlx_get_last_error(), "parallel body returned error code 5");
}

INSTANTIATE_TEST_SUITE_P(Backends, ThreadingTest, ::testing::ValuesIn(AvailableBackends()),
                         [](const ::testing::TestParamInfo<ThreadingBackend>& info) {
                           return info.param == ThreadingBackend::kOpenMP ? "OpenMP" : "ThreadPool";
                         });

TEST(ThreadCountTest, InvalidEnvironmentIsAnError) {
  for (const char* bad : {"0", "-2", "two", "3x", "100000"}) {
    setenv("RLX_NUM_THREADS", bad, 1);
    try {
      SetNumThreads(0);
      ADD_FAILURE() << "accepted RLX_NUM_THREADS=" << bad;
    } catch (const RuntimeError& error) {
      EXPECT_THAT(error.what(), HasSubstr(std::string("RLX_NUM_THREADS must be an integer from 1 to 1024, got '") +
                                          bad + "'"));
    }
  }
  unsetenv("RLX_NUM_THREADS");
  SetNumThreads(0);
  EXPECT_GE(NumThreads(), 1);
}

TEST(ThreadCountTest, OpenMPBackendIsSelectableOnlyWhenBuiltIn) {
  // The build links OpenMP where CMake finds it (g++ with libgomp here); a
  // runtime built without it must refuse the backend instead of ignoring it.
  if (HasOpenMP()) {
    EXPECT_NO_THROW(SetThreadingBackend(ThreadingBackend::kOpenMP));
    EXPECT_EQ(GetThreadingBackend(), ThreadingBackend::kOpenMP);
  } else {
    EXPECT_THROW(SetThreadingBackend(ThreadingBackend::kOpenMP), RuntimeError);
  }
}

}  // namespace
}  // namespace rlx::runtime
