#pragma once
/// @brief Calls a function every period on a thread of its own until stopped. The tracer uses it to hand CUPTI's
/// completed buffers to the trace file regularly, so that a killed application leaves its trace up to then. Pure.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace warpsim::tracer {

class PeriodicFlusher {
 public:
  PeriodicFlusher(std::chrono::milliseconds period, std::function<void()> flush);
  ~PeriodicFlusher();  // stops
  PeriodicFlusher(const PeriodicFlusher&) = delete;
  PeriodicFlusher& operator=(const PeriodicFlusher&) = delete;

  /// Wakes the thread, waits for it to end; the function is not called again. Idempotent.
  void stop();

 private:
  void run();

  const std::chrono::milliseconds period_;
  const std::function<void()> flush_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace warpsim::tracer
