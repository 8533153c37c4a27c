#include "cupti/periodic_flusher.h"

#include <utility>

namespace warpsim::tracer {

PeriodicFlusher::PeriodicFlusher(std::chrono::milliseconds period, std::function<void()> flush)
    : period_(period), flush_(std::move(flush)), thread_([this] { run(); }) {}

PeriodicFlusher::~PeriodicFlusher() { stop(); }

void PeriodicFlusher::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PeriodicFlusher::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stopping_; })) {
    lock.unlock();
    flush_();
    lock.lock();
  }
}

}  // namespace warpsim::tracer
