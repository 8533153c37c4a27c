#pragma once
/// @brief Items (events read from a trace, and whatever is made of them) made on a thread of their own, a bounded
/// number ahead of the thread that uses them: parsing a trace takes half of a pass over it, which a second core then
/// takes.
///
/// Items pass between the threads in batches, so that each lock is paid once per batch rather than per item, and the
/// batches go back and forth: an item's memory is filled again on the reading thread rather than freed on one thread
/// and allocated on the other (which made malloc a replay's bottleneck).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace warpsim {

template <typename Item>
class ReadAhead {
 public:
  /// Fills the item given (an earlier item's memory) with the next one; false once there is none. Called on the
  /// reading thread, one item after the other; what it throws is rethrown by next() where it happened in the order.
  using Fill = std::function<bool(Item&)>;

  explicit ReadAhead(Fill fill) : fill_(std::move(fill)), thread_([this] { read_all(); }) {}
  /// Stops the reading thread (where the user stopped early) and waits for it.
  ~ReadAhead() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  /// The next item, the caller's until the next call (which hands its memory back to the reading thread); nullptr
  /// after the last.
  Item* next() {
    while (next_in_taken_ == taken_.count) {
      if (!take_batch()) return nullptr;
    }
    return &taken_.items[next_in_taken_++];
  }

 private:
  static constexpr std::size_t kBatchItems = 256;
  static constexpr std::size_t kBatchesAhead = 8;  // what waits in memory: 2,048 items

  struct Batch {
    std::vector<Item> items;  // the first `count` hold items; the rest are memory to fill again
    std::size_t count = 0;
  };

  void read_all() {
    bool more = true;
    while (more) {
      Batch batch = spare_batch();
      std::exception_ptr failure;
      try {
        more = fill_batch(batch);
      } catch (...) {
        failure = std::current_exception();
        more = false;
      }
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || ready_.size() < kBatchesAhead; });
      if (stop_) return;
      if (batch.count > 0) ready_.push_back(std::move(batch));
      failure_ = failure;
      ended_ = !more;
      lock.unlock();
      changed_.notify_all();
    }
  }

  Batch spare_batch() {
    const std::lock_guard lock(mutex_);
    if (spare_.empty()) return {};
    Batch batch = std::move(spare_.back());
    spare_.pop_back();
    batch.count = 0;
    return batch;
  }

  // Fills `batch` with up to kBatchItems items; false once there are no more.
  bool fill_batch(Batch& batch) {
    while (batch.count < kBatchItems) {
      if (batch.count == batch.items.size()) batch.items.emplace_back();
      if (!fill_(batch.items[batch.count])) return false;
      ++batch.count;
    }
    return true;
  }

  // Hands the batch done with back and waits for the next; false when the reading ended and every batch was taken
  // (its failure rethrown).
  bool take_batch() {
    std::unique_lock lock(mutex_);
    if (!taken_.items.empty()) spare_.push_back(std::move(taken_));
    taken_ = {};
    next_in_taken_ = 0;
    changed_.wait(lock, [this] { return !ready_.empty() || ended_; });
    if (ready_.empty()) {
      if (failure_) std::rethrow_exception(failure_);
      return false;
    }
    taken_ = std::move(ready_.front());
    ready_.pop_front();
    const bool reader_was_held = ready_.size() + 1 == kBatchesAhead;
    lock.unlock();
    if (reader_was_held) changed_.notify_all();
    return true;
  }

  Fill fill_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch> ready_;   // filled, not yet taken (at most kBatchesAhead)
  std::vector<Batch> spare_;  // taken and done with, to fill again
  bool ended_ = false;        // the reading thread made its last batch
  bool stop_ = false;         // the user wants no more
  std::exception_ptr failure_;
  Batch taken_;  // the user's current batch, and its next item
  std::size_t next_in_taken_ = 0;
  std::thread thread_;  // last: started once the rest exists
};

}  // namespace warpsim
