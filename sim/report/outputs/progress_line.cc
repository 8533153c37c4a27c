#include "outputs/progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

namespace warpsim::report {
namespace {

// "1,000,000": counts a reader takes in at a glance.
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

}  // namespace

bool stderr_is_a_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::chrono::milliseconds interval)
    : out_(out), enabled_(enabled), interval_(interval) {}

void ProgressLine::update(std::string_view phase, std::string_view what, std::uint64_t done, std::uint64_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool finished = total > 0 && done >= total;
  if (shown_ && phase == phase_ && now - last_ < interval_ && !finished) return;
  last_ = now;
  phase_ = phase;
  std::string line = fmt::format("{}: {} {}", phase, grouped(done), what);
  if (total > 0) {
    line = fmt::format("{}: {} of {} {} ({}%)", phase, grouped(done), grouped(total), what,
                       done >= total ? 100 : done * 100 / total);
  }
  out_ << "\r\033[K" << line << std::flush;  // back to the line's start, erase it, write
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

}  // namespace warpsim::report
