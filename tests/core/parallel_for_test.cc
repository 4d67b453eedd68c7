// PipelinedFor: items prepared in order on the calling thread, run on workers as they come
// free, a bounded number waiting, the first exception stopping the loop.
#include "core/parallel_for.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace proj {
namespace {

TEST(PipelinedFor, PreparesInOrderOnTheCallerAndRunsEachItemOnceOnAWorker) {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<int> prepared;
  std::vector<int> runs(40, 0);
  std::set<int> workers_seen;
  std::mutex mutex;
  PipelinedFor(
      40, 3, 2,
      [&](int i) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        prepared.push_back(i);
      },
      [&](int i, int worker) {
        EXPECT_NE(std::this_thread::get_id(), caller);
        EXPECT_GE(worker, 0);
        EXPECT_LT(worker, 3);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        std::lock_guard<std::mutex> lock(mutex);
        ++runs[i];
        workers_seen.insert(worker);
      });
  std::vector<int> expected(40);
  for (int i = 0; i < 40; ++i) expected[i] = i;
  EXPECT_EQ(prepared, expected);
  EXPECT_EQ(runs, std::vector<int>(40, 1));
  EXPECT_GE(workers_seen.size(), 1u);
}

TEST(PipelinedFor, PreparesNoFurtherAheadThanTheWaitingLimitAllows) {
  // Prepared items whose run has not finished: at most the waiting ones (3), the running ones
  // (2 workers) and the one being prepared. Preparing is instant and runs are slow, so without
  // the limit preparing would run through all 30 items at once.
  std::atomic<int> prepared{0};
  std::atomic<int> finished{0};
  std::atomic<int> most_ahead{0};
  PipelinedFor(
      30, 2, 3,
      [&](int) {
        const int ahead = ++prepared - finished.load();
        int seen = most_ahead.load();
        while (ahead > seen && !most_ahead.compare_exchange_weak(seen, ahead)) {
        }
      },
      [&](int, int) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ++finished;
      });
  EXPECT_EQ(prepared.load(), 30);
  EXPECT_LE(most_ahead.load(), 3 + 2 + 1);
  EXPECT_GE(most_ahead.load(), 3);
}

TEST(PipelinedFor, SlowItemsDoNotHoldBackTheOtherWorkers) {
  // Item 0 blocks its worker until every other item ran: only dynamic assignment lets the
  // other worker run all 19 meanwhile. The slow item must run too (a loop that skipped it
  // would pass the wait trivially), and what it saw is checked after the loop.
  std::atomic<int> done{0};
  std::atomic<bool> slow_item_ran{false};
  std::atomic<int> done_while_slow_item_waited{-1};
  PipelinedFor(
      20, 2, 2, [](int) {},
      [&](int i, int) {
        if (i != 0) {
          ++done;
          return;
        }
        slow_item_ran = true;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (done.load() < 19 && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        done_while_slow_item_waited = done.load();
      });
  EXPECT_TRUE(slow_item_ran.load()) << "item 0 never ran";
  EXPECT_EQ(done_while_slow_item_waited.load(), 19) << "the other items waited for item 0";
  EXPECT_EQ(done.load(), 19);
}

TEST(PipelinedFor, AnExceptionFromARunStopsTheLoopAndIsRethrown) {
  std::atomic<int> runs{0};
  int prepared = 0;
  EXPECT_THROW(PipelinedFor(
                   1000, 2, 1, [&](int) { ++prepared; },
                   [&](int i, int) {
                     ++runs;
                     if (i == 5) throw std::runtime_error("bad block");
                   }),
               std::runtime_error);
  EXPECT_LT(prepared, 1000);
  EXPECT_LT(runs.load(), 1000);
}

TEST(PipelinedFor, AnExceptionFromPreparingLetsRunsUnderWayFinish) {
  std::atomic<int> started{0};
  std::atomic<int> finished{0};
  EXPECT_THROW(PipelinedFor(
                   10, 2, 1,
                   [&](int i) {
                     if (i == 3) throw std::invalid_argument("unreadable");
                   },
                   [&](int, int) {
                     ++started;
                     std::this_thread::sleep_for(std::chrono::milliseconds(5));
                     ++finished;
                   }),
               std::invalid_argument);
  // Items 0..2 were prepared before the failure; the ones started finished.
  EXPECT_LE(started.load(), 3);
  EXPECT_EQ(finished.load(), started.load());
}

TEST(PipelinedFor, NothingToDo) {
  bool called = false;
  PipelinedFor(0, 4, 1, [&](int) { called = true; }, [&](int, int) { called = true; });
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace proj
