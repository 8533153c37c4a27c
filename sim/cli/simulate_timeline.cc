#include "simulate_timeline.h"

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace warpsim::cli {
namespace {

// Linux schedules each thread on its own, and a thread it starts inherits its policy (the writer's read-ahead too).
// SCHED_IDLE: a thread that runs when a core would idle (the replay's main thread loses next to nothing to it; nice
// 19 took a fifth of the gain back).
void set_policy(pid_t thread, int policy) {
  sched_param parameters{};
  sched_setscheduler(thread, policy, &parameters);  // best effort: the timeline is the same either way
}

// The writer's thread first (the threads it starts from then on inherit the normal policy), then every other thread
// of the process that idles: the read-ahead threads it started before.
void stop_idling(pid_t writer) {
  if (writer > 0) set_policy(writer, SCHED_OTHER);
  try {
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      const pid_t thread = static_cast<pid_t>(std::strtol(task.path().filename().c_str(), nullptr, 10));
      if (thread > 0 && sched_getscheduler(thread) == SCHED_IDLE) set_policy(thread, SCHED_OTHER);
    }
  } catch (const std::filesystem::filesystem_error&) {  // best effort, as above
  }
}

}  // namespace

SimulateTimeline::SimulateTimeline(const std::filesystem::path& target, const report::TimelineOptions& options,
                                   const report::TimelineSource& recorded, report::ProgressLine& progress)
    : progress_(progress), file_(target) {
  report::TimelineOptions writing = options;
  writing.progress = [this](std::uint64_t slices) {
    if (abandoned_) throw Abandoned{};
    if (in_foreground_) progress_.update("timeline", "slices", slices, 0);
  };
  writer_ = std::make_unique<report::TimelineWriter>(file_.stream(), writing);
  recorded_written_ = std::async(std::launch::async, [this, recorded] {
    {
      const std::lock_guard lock(priority_);
      if (!in_foreground_) {
        set_policy(0, SCHED_IDLE);
        writer_thread_ = gettid();
      }
    }
    writer_->add(recorded);
  });
}

SimulateTimeline::~SimulateTimeline() {
  abandoned_ = true;
  if (!recorded_written_.valid()) return;
  try {
    recorded_written_.get();
  } catch (...) {  // the command already fails for its own reason
  }
}

void SimulateTimeline::finish(const report::TimelineSource& simulated) {
  {
    // From now on the command waits for the recording's half: on a busy machine an idle thread would wait for ever.
    const std::lock_guard lock(priority_);
    in_foreground_ = true;
    stop_idling(writer_thread_);
  }
  recorded_written_.get();  // rethrows the recording's failure
  writer_->add(simulated);
  writer_->finish();
  progress_.clear();
  file_.commit();
}

}  // namespace warpsim::cli
