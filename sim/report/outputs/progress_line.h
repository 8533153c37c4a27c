#pragma once
/// @brief One status line on a terminal for long runs ("replaying: 450,000 of 1,000,000 operations (45%)"), rewritten
/// in place at most every `interval` and erased when done. Off unless asked for (stderr_is_a_terminal()): logs, pipes
/// and tests get nothing.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace warpsim::report {

bool stderr_is_a_terminal();

class ProgressLine {
 public:
  ProgressLine(std::ostream& out, bool enabled, std::chrono::milliseconds interval = std::chrono::milliseconds(200));
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Shows `done` `what` of `total` (0: not known yet) under `phase`, unless the line was rewritten less than an
  /// interval ago and the phase is the same (the last step, `done` reaching `total`, is always shown).
  void update(std::string_view phase, std::string_view what, std::uint64_t done, std::uint64_t total);
  /// Erases the line (nothing if none is shown).
  void clear();

 private:
  std::ostream& out_;
  bool enabled_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point last_{};
  std::string phase_;
  bool shown_ = false;
};

}  // namespace warpsim::report
