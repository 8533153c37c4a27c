#pragma once
/// @brief Opt-in (WARPSIM_TRACE_BACKTRACE set): on a fatal signal in the traced process, print a backtrace on stderr
/// before the process dies as it would have (same signal, same exit status). For finding where a crash inside the
/// tracer or CUPTI comes from; off by default because an application may rely on its own signal handlers.

namespace warpsim::tracer {

/// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT that print the backtrace (frames as
/// `library(+offset)`, for addr2line) and then re-raise the signal with the default action.
void install_crash_report();

}  // namespace warpsim::tracer
