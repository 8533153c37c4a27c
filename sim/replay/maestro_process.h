#pragma once
// The replay's processes (a host thread, a stream) as C++20 coroutines that SimGrid's maestro resumes, instead of
// SimGrid actors. A process waits for a simulated time (a SimGrid timer), for activities it started (their completion
// callback), or for another process (Park). An actor switches stacks and goes through a simcall for every start, sleep
// and wait, seven a kernel; a process resumes straight from the engine's own callbacks, and a delay is a timer rather
// than an activity the solver shares out. On 1M generated kernels (scripts/bench-replay.sh's trace, 2-core machine,
// median of 3) `simulate` took 7.2 s with actors and 5.0 s with processes, its simulated trace byte for byte the same.
#include <simgrid/s4u.hpp>

#include <coroutine>
#include <cstddef>
#include <deque>
#include <exception>
#include <utility>
#include <vector>

namespace warpsim::replay {

class Maestro;

/// A process: a coroutine created suspended, which its Maestro starts and resumes. Its body may co_await
/// Maestro::until, Maestro::activities and Park; an exception leaving it stops the replay (Maestro::failure).
class Process {
 public:
  struct promise_type {
    std::exception_ptr* failure = nullptr;  // where the Maestro keeps the first one
    Process get_return_object() { return Process(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }  // the Maestro destroys the frame, finished or not
    void return_void() noexcept {}
    void unhandled_exception() noexcept {
      if (!*failure) *failure = std::current_exception();
    }
  };
  using Handle = std::coroutine_handle<promise_type>;

  explicit Process(Handle handle) : handle_(handle) {}
  Process(Process&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  Process& operator=(Process&&) = delete;
  ~Process() {
    if (handle_) handle_.destroy();
  }
  Handle release() { return std::exchange(handle_, {}); }

 private:
  Handle handle_;
};

/// Processes waiting for something another process does, woken in the order they came.
using Waiters = std::deque<std::coroutine_handle<>>;

/// Suspends the process into `waiters` (null: goes on at once); whoever owns them wakes it (Maestro::wake_one,
/// wake_all). The waiters must stay where they are while it waits.
struct Park {
  Waiters* waiters;
  bool await_ready() const noexcept { return waiters == nullptr; }
  void await_suspend(std::coroutine_handle<> process) { waiters->push_back(process); }
  void await_resume() const noexcept {}
};

/// Runs processes from SimGrid's maestro: started by `run_ready` before the engine runs, then resumed from SimGrid's
/// timers and activity completions, one at a time, in the order they became ready. One per replay (one engine per
/// process: its completion callback is connected once).
class Maestro {
 public:
  Maestro();
  ~Maestro();
  Maestro(const Maestro&) = delete;
  Maestro& operator=(const Maestro&) = delete;

  /// Takes `process` and makes it ready to start.
  void spawn(Process process);
  /// Resumes every ready process, and those they make ready, until none is. No effect once one has failed.
  void run_ready();
  void wake_one(Waiters& waiters);
  void wake_all(Waiters& waiters);

  /// The first exception that left a process; null while none has.
  std::exception_ptr failure() const { return failure_; }
  /// Whether every process spawned has returned.
  bool all_finished() const;

  class Until;
  class Activities;
  /// Resumes the process at simulated time `time` (at once if it has come).
  Until until(double time);
  /// Starts `activities` together and resumes the process once all have ended, with the simulated time each ended
  /// at, in their order.
  Activities activities(std::vector<simgrid::s4u::ActivityPtr> activities);

 private:
  void ready(std::coroutine_handle<> process) { ready_.push_back(process); }
  // Activities that ended are released from the next callback on: SimGrid still uses the one ending while it calls.
  void retire(std::vector<simgrid::s4u::ActivityPtr>& ended);
  void engine_callback(std::coroutine_handle<> process);

  std::deque<std::coroutine_handle<>> ready_;
  std::vector<Process::Handle> processes_;
  std::vector<simgrid::s4u::ActivityPtr> retired_;
  std::exception_ptr failure_;
  bool running_ = false;
};

class Maestro::Until {
 public:
  Until(Maestro& maestro, double time) : maestro_(maestro), time_(time) {}
  bool await_ready() const noexcept;
  void await_suspend(std::coroutine_handle<> process);
  void await_resume() const noexcept {}

 private:
  Maestro& maestro_;
  double time_;
};

class Maestro::Activities {
 public:
  Activities(Maestro& maestro, std::vector<simgrid::s4u::ActivityPtr> activities)
      : maestro_(maestro), activities_(std::move(activities)) {}
  bool await_ready() const noexcept { return activities_.empty(); }
  void await_suspend(std::coroutine_handle<> process);
  std::vector<double> await_resume();

  /// SimGrid's completion callback, for an activity started here.
  void ended(const simgrid::s4u::Activity& activity);

 private:
  Maestro& maestro_;
  std::vector<simgrid::s4u::ActivityPtr> activities_;
  std::vector<double> end_times_;
  std::size_t running_ = 0;
  std::coroutine_handle<> process_;
};

inline Maestro::Until Maestro::until(double time) { return Until(*this, time); }
inline Maestro::Activities Maestro::activities(std::vector<simgrid::s4u::ActivityPtr> activities) {
  return Activities(*this, std::move(activities));
}

}  // namespace warpsim::replay
