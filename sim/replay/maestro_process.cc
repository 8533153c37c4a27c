#include "maestro_process.h"

#include <simgrid/kernel/Timer.hpp>

#include <algorithm>
#include <iterator>
#include <mutex>

namespace sg4 = simgrid::s4u;

namespace warpsim::replay {
namespace {

// SimGrid calls back for every activity maestro started, once it ended; those started by Maestro::Activities carry it.
void connect_completion_callback() {
  static std::once_flag connected;
  std::call_once(connected, [] {
    sg4::Activity::on_completion_cb([](const sg4::Activity& activity) {
      if (auto* waiting = activity.get_data<Maestro::Activities>()) waiting->ended(activity);
    });
  });
}

}  // namespace

Maestro::Maestro() { connect_completion_callback(); }

Maestro::~Maestro() {
  for (Process::Handle process : processes_) process.destroy();
}

void Maestro::spawn(Process process) {
  Process::Handle handle = process.release();
  handle.promise().failure = &failure_;
  processes_.push_back(handle);
  ready(handle);
}

void Maestro::run_ready() {
  if (running_) return;  // a process woke another: the loop below resumes it
  running_ = true;
  while (!ready_.empty() && !failure_) {
    const std::coroutine_handle<> process = ready_.front();
    ready_.pop_front();
    process.resume();
  }
  running_ = false;
}

void Maestro::wake_one(Waiters& waiters) {
  if (waiters.empty()) return;
  ready(waiters.front());
  waiters.pop_front();
}

void Maestro::wake_all(Waiters& waiters) {
  for (std::coroutine_handle<> process : waiters) ready(process);
  waiters.clear();
}

bool Maestro::all_finished() const {
  return std::all_of(processes_.begin(), processes_.end(), [](Process::Handle process) { return process.done(); });
}

void Maestro::retire(std::vector<sg4::ActivityPtr>& ended) {
  std::move(ended.begin(), ended.end(), std::back_inserter(retired_));
  ended.clear();
}

void Maestro::engine_callback(std::coroutine_handle<> process) {
  retired_.clear();
  ready(process);
  run_ready();
}

bool Maestro::Until::await_ready() const noexcept { return time_ <= sg4::Engine::get_clock(); }

void Maestro::Until::await_suspend(std::coroutine_handle<> process) {
  Maestro* maestro = &maestro_;
  simgrid::kernel::timer::Timer::set(time_, [maestro, process] { maestro->engine_callback(process); });
}

void Maestro::Activities::await_suspend(std::coroutine_handle<> process) {
  process_ = process;
  running_ = activities_.size();
  end_times_.assign(activities_.size(), 0);
  for (const sg4::ActivityPtr& activity : activities_) {
    activity->set_data(this);
    activity->start();
  }
}

std::vector<double> Maestro::Activities::await_resume() {
  maestro_.retire(activities_);
  return std::move(end_times_);
}

void Maestro::Activities::ended(const sg4::Activity& activity) {
  const auto it = std::find_if(activities_.begin(), activities_.end(),
                               [&activity](const sg4::ActivityPtr& started) { return started.get() == &activity; });
  end_times_.at(static_cast<std::size_t>(it - activities_.begin())) = sg4::Engine::get_clock();
  if (--running_ == 0) maestro_.engine_callback(process_);
}

}  // namespace warpsim::replay
