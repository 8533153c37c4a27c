#pragma once
// simulate's timeline: the recording's half is written from the start, on threads that only take CPU time the replay
// leaves idle, and the simulation's half once the simulated trace exists.
#include <sys/types.h>

#include <atomic>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <string>

#include "atomic_output.h"
#include "outputs/progress_line.h"
#include "outputs/timeline_export.h"

namespace warpsim::cli {

class SimulateTimeline {
 public:
  /// Creates the output's temporary file (OutputError where it cannot be) and starts writing `recorded` into it.
  SimulateTimeline(const std::filesystem::path& target, const report::TimelineOptions& options,
                   const report::TimelineSource& recorded, report::ProgressLine& progress);
  /// Without finish(): stops the writing; the target stays untouched.
  ~SimulateTimeline();
  SimulateTimeline(const SimulateTimeline&) = delete;
  SimulateTimeline& operator=(const SimulateTimeline&) = delete;

  /// Adds `simulated` once the recording's half is written (rethrowing what stopped that) and puts the file in place.
  void finish(const report::TimelineSource& simulated);

 private:
  // Thrown inside the writer by its progress report once the command has given up on the timeline.
  struct Abandoned {};

  report::ProgressLine& progress_;
  std::atomic<bool> abandoned_ = false;
  std::mutex priority_;                      // the writer idles, or not, once
  pid_t writer_thread_ = 0;                  // once it idles
  std::atomic<bool> in_foreground_ = false;  // the command waits for the timeline: it shows progress, idles no more
  AtomicOutputFile file_;
  std::unique_ptr<report::TimelineWriter> writer_;
  std::future<void> recorded_written_;  // last: its thread uses the rest
};

}  // namespace warpsim::cli
