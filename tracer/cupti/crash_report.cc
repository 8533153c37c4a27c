#include "cupti/crash_report.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>

namespace warpsim::tracer {
namespace {

// Only async-signal-safe calls here (write, backtrace_symbols_fd); backtrace() is made safe by calling it once
// before any crash (it loads libgcc lazily).
void on_fatal_signal(int signal_number) {
  static const char kHeader[] = "warpsim tracer: fatal signal; backtrace (library(+offset) for addr2line):\n";
  ssize_t ignored = write(STDERR_FILENO, kHeader, sizeof kHeader - 1);
  (void)ignored;
  void* frames[64];
  const int count = backtrace(frames, 64);
  backtrace_symbols_fd(frames, count, STDERR_FILENO);
  raise(signal_number);  // SA_RESETHAND restored the default action: the process dies as it would have
}

}  // namespace

void install_crash_report() {
  void* warm_up[1];
  backtrace(warm_up, 1);
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_fatal_signal;
  action.sa_flags = static_cast<int>(SA_RESETHAND | SA_NODEFER);
  sigemptyset(&action.sa_mask);
  for (int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(signal_number, &action, nullptr);
}

}  // namespace warpsim::tracer
