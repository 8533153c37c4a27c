// warpsim: one binary, one subcommand per file in sim/cli/.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

#include "calibrate_command.h"
#include "compare_command.h"
#include "completion_command.h"
#include "inspect_command.h"
#include "merge_command.h"
#include "outputs/printable.h"
#include "petri_command.h"
#include "record_command.h"
#include "report_command.h"
#include "sass_command.h"
#include "scale_command.h"
#include "timeline_command.h"
#ifdef WARPSIM_HAS_REPLAY
#include "models_command.h"
#include "simulate_command.h"
#include "sweep_command.h"
#endif
#include "trace_error.h"
#include "warpsim/git_revision.h"
#include "warpsim/version.h"

int main(int argc, char** argv) {
  CLI::App app{"warpsim: trace-driven simulator for CUDA GPUs and multi-GPU nodes"};
  app.set_version_flag("--version",
                       std::string("warpsim ") + warpsim::kVersion + " (git " + warpsim::kGitRevision + ")");
  app.require_subcommand(1);
  app.footer(
      "Exit status: 0 done; 1 failed, with one line on stderr naming what and where (bad input, an output that could "
      "not be written, a sweep point without result); 100-127 a usage error (a missing or unknown option or value); "
      "record returns the application's own status (128+N if signal N ended it), or 1 when no trace was written.");
  int exit_status = 0;  // set by commands whose status is not simply success (record returns the application's)
  warpsim::cli::add_inspect_command(app);
  warpsim::cli::add_record_command(app, exit_status);
  warpsim::cli::add_merge_command(app);
  warpsim::cli::add_scale_command(app);
  warpsim::cli::add_sass_command(app);
  warpsim::cli::add_compare_command(app);
  warpsim::cli::add_timeline_command(app);
  warpsim::cli::add_report_command(app);
  warpsim::cli::add_petri_command(app);
  warpsim::cli::add_calibrate_command(app);
#ifdef WARPSIM_HAS_REPLAY
  warpsim::cli::add_simulate_command(app);
  warpsim::cli::add_models_command(app);
  warpsim::cli::add_sweep_command(app, exit_status);
#endif
  warpsim::cli::add_completion_command(app);  // last: it lists the commands above
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    // TraceError and the like: one line naming what and where; the caller gets a plain failure status.
    std::cerr << "error: " << warpsim::report::printable(error.what()) << '\n';
    return 1;
  }
  // What a command printed may not have reached its destination (`inspect --json > file` on a full disk): a failed
  // write of standard output is a failed command, not a truncated success.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "error: standard output: write failed: " << std::strerror(errno) << '\n';
    return 1;
  }
  return exit_status;
}
