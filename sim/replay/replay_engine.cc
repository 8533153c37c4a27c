#include "replay_engine.h"

#include <simgrid/s4u.hpp>

#include <cmath>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "maestro_process.h"
#include "simgrid_node.h"
#include "units.h"

namespace sg4 = simgrid::s4u;

namespace warpsim::replay {
namespace {

// Shared by the processes. The Maestro runs them one at a time, so plain data needs no locking.
class ReplayState {
 public:
  ReplayState(ReplayFeed& feed, std::size_t threads, SimgridNode node, std::size_t copy_engines,
              const OpsEnded& ops_ended)
      : feed_(feed),
        node_(std::move(node)),
        ops_ended_(ops_ended),
        threads_running_(threads),
        copy_engines_(copy_engines) {
    for (std::size_t t = 0; t < threads; ++t) maestro_.spawn(run_host(t));
    add_new_streams();
  }

  // Starts the processes, then runs the engine, which resumes them until none has anything left to wait for.
  void run(sg4::Engine& engine) {
    maestro_.run_ready();
    engine.run();
    if (maestro_.failure()) std::rethrow_exception(maestro_.failure());
    if (!maestro_.all_finished()) {
      throw std::runtime_error("the replay stopped with operations left waiting for each other (a dependency cycle)");
    }
  }

 private:
  // How many operations a host thread may issue ahead of the simulated time before it lets the time catch up: the
  // replay keeps them in memory beyond what the GPUs have been issued and not run yet.
  static constexpr std::size_t kRunAheadOps = 1024;

  struct CopyEngine {
    bool busy = false;
    Waiters waiting;  // in the order they asked
  };

  // Streams the feed learned of since the last call get their process.
  void add_new_streams() {
    while (issue_times_.size() < feed_.stream_count()) {
      issue_times_.emplace_back();
      issue_waiters_.emplace_back();
      maestro_.spawn(run_stream(issue_times_.size() - 1));
    }
  }

  // A host thread keeps its own clock and waits for the simulated time only where the replay needs it to: before it
  // waits for the GPUs, and after every kRunAheadOps issues. Its compute steps only move its clock, and an issue
  // carries the time it was made, which its stream does not start the operation before: the same times as waiting
  // through every step, for one timer where there were one per step.
  Process run_host(std::size_t thread) {
    double clock = 0;              // simulated time: at or ahead of the engine's clock
    std::size_t issued_ahead = 0;  // operations issued since the thread last let the time catch up
    HostStep step;
    while (feed_.next_step(thread, step)) {
      add_new_streams();
      switch (step.kind) {
        case HostStep::Kind::kCompute: clock += units::sim_from_seconds(step.seconds); break;
        case HostStep::Kind::kIssue:
          issue_times_.at(step.stream).push_back(clock);
          maestro_.wake_all(issue_waiters_[step.stream]);
          if (++issued_ahead == kRunAheadOps) {
            co_await maestro_.until(clock);
            issued_ahead = 0;
          }
          break;
        case HostStep::Kind::kWait:
          co_await maestro_.until(clock);
          issued_ahead = 0;
          co_await op_done(step.op);
          clock = sg4::Engine::get_clock();
          break;
        case HostStep::Kind::kCallStart:
        case HostStep::Kind::kCallEnd: break;
      }
      feed_.step_ended(thread, step, units::seconds_from_sim(clock));
    }
    co_await maestro_.until(clock);  // the thread's last steps end at its own time, which the replay's end includes
    if (--threads_running_ == 0) {
      for (Waiters& waiting : issue_waiters_) maestro_.wake_all(waiting);  // nothing follows
    }
  }

  // Each stream runs its operations in issue order, none before the host issued it.
  Process run_stream(std::size_t stream) {
    while (true) {
      while (issue_times_[stream].empty() && threads_running_ > 0) co_await Park{&issue_waiters_[stream]};
      const bool issued = !issue_times_[stream].empty();
      const double issued_at = issued ? issue_times_[stream].front() : 0;
      if (issued) issue_times_[stream].pop_front();
      std::optional<FedOp> op = feed_.next_op(stream);  // asked at the end too: the feed hears that nothing follows
      if (!issued || !op) co_return;
      co_await maestro_.until(issued_at);
      for (std::size_t awaited : op->waits_for) co_await op_done(awaited);
      // A copy engine moves one copy at a time: a copy waits for its engine before it starts.
      CopyEngine* engine = op->work.copy_engine ? &copy_engines_.at(*op->work.copy_engine) : nullptr;
      if (engine && engine->busy) co_await Park{&engine->waiting};  // handed over busy
      if (engine) engine->busy = true;
      // The launch cost is part of a kernel's recorded duration: CUPTI's shortest kernel (empty, one block) lasts it.
      const double start = sg4::Engine::get_clock();
      if (op->work.setup_s > 0) co_await maestro_.until(start + units::sim_from_seconds(op->work.setup_s));
      std::int16_t last_transfer = -1;
      for (Phase& phase : make_phases(op->work)) {
        if (phase.activities.empty()) continue;
        const double started = sg4::Engine::get_clock();
        const std::vector<double> end_times = co_await maestro_.activities(std::move(phase.activities));
        last_transfer = last_ended(phase, end_times, started);
      }
      if (engine) release(*engine);
      op_ended(*op, start, last_transfer);
    }
  }

  // Only operations someone waits for before they end get waiters: a few per synchronization, not one per operation.
  Park op_done(std::size_t op) {
    const bool done = op < done_.size() && done_[op];
    return Park{done ? nullptr : &done_waiters_[op]};
  }

  // Which of an operation's work a phase runs: all of it, or (a kernel's serial share) its remote transfers alone, or
  // its SM work and local transfers.
  enum class Part { kAll, kRemote, kLocal };

  struct Phase {
    std::vector<sg4::ActivityPtr> activities;
    std::vector<std::int16_t> transfer_of;  // per activity: its index among the work's transfers, -1 the SM work
  };

  static std::uint64_t share_of(std::uint64_t bytes, double share) {
    return share == 1 ? bytes : static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * share));
  }

  // The phase's activities, not started yet.
  Phase make_phase(const OpWork& work, double share, Part part) const {
    Phase phase;
    phase.activities.reserve(1 + work.transfers.size());
    phase.transfer_of.reserve(1 + work.transfers.size());
    // The local phase runs the SM time of the local work alone (OpWork::local_sm_time_s).
    const double sm_time_s = part == Part::kLocal ? work.local_sm_time_s.value_or(work.sm_time_s) : work.sm_time_s;
    if (part != Part::kRemote && sm_time_s > 0) {
      phase.activities.push_back(sg4::Exec::init()
                                     ->set_flops_amount(units::sm_work_from_seconds(sm_time_s * share))
                                     ->set_host(node_.hosts.at(work.sm_vertex))
                                     ->set_thread_count(static_cast<int>(work.sms_used)));
      phase.transfer_of.push_back(-1);
    }
    for (std::size_t i = 0; i < work.transfers.size(); ++i) {
      const Transfer& transfer = work.transfers[i];
      if ((part == Part::kRemote && !transfer.remote) || (part == Part::kLocal && transfer.remote)) continue;
      const std::uint64_t bytes = share_of(transfer.bytes, share);
      if (bytes == 0) continue;
      phase.activities.push_back(
          sg4::Comm::sendto_init(node_.hosts.at(transfer.from), node_.hosts.at(transfer.to))->set_payload_size(bytes));
      phase.transfer_of.push_back(static_cast<std::int16_t>(i));
    }
    return phase;
  }

  // The index among the work's transfers of the phase's activity that ended last, or -1 when none ended after the SM
  // work. A tie goes to the one first in the phase (the SM work first).
  static std::int16_t last_ended(const Phase& phase, const std::vector<double>& end_times, double started) {
    std::int16_t last = -1;
    double latest = started;
    for (std::size_t i = 0; i < end_times.size(); ++i) {
      if (end_times[i] <= latest) continue;
      latest = end_times[i];
      last = phase.transfer_of[i];
    }
    return last;
  }

  // The phases of the work after its setup: all of it together, or, for a kernel whose remote and local work partly
  // ran apart (serial_share), the part that overlapped together, then the rest of the remote transfers, then the rest
  // of the SM work and local transfers. The operation's last transfer is that of its last phase (last_ended).
  std::vector<Phase> make_phases(const OpWork& work) const {
    if (work.serial_share <= 0) return {make_phase(work, 1, Part::kAll)};
    std::vector<Phase> phases;
    const double together = 1 - work.serial_share;
    if (together > 0) phases.push_back(make_phase(work, together, Part::kAll));
    for (Part part : {Part::kRemote, Part::kLocal}) phases.push_back(make_phase(work, work.serial_share, part));
    return phases;
  }

  void release(CopyEngine& engine) {
    if (engine.waiting.empty()) {
      engine.busy = false;
    } else {
      maestro_.wake_one(engine.waiting);
    }
  }

  void op_ended(const FedOp& op, double start, std::int16_t last_transfer) {
    feed_.op_ended(op, units::seconds_from_sim(start), units::seconds_from_sim(sg4::Engine::get_clock()),
                   last_transfer);
    if (done_.size() <= op.op) done_.resize(op.op + 1, false);
    done_[op.op] = true;
    if (const auto waiting = done_waiters_.find(op.op); waiting != done_waiters_.end()) {
      maestro_.wake_all(waiting->second);
      done_waiters_.erase(waiting);
    }
    ++ops_done_;
    if (ops_ended_) ops_ended_(ops_done_);
  }

  ReplayFeed& feed_;
  SimgridNode node_;
  const OpsEnded& ops_ended_;
  Maestro maestro_;
  std::size_t threads_running_;
  std::size_t ops_done_ = 0;
  std::vector<bool> done_;
  std::unordered_map<std::size_t, Waiters> done_waiters_;  // node-based: parked processes keep their entry's place
  std::vector<std::deque<double>> issue_times_;  // per stream, of the operations issued and not yet taken
  std::deque<Waiters> issue_waiters_;            // per stream (a deque: adding a stream moves none)
  std::vector<CopyEngine> copy_engines_;
};
std::unique_ptr<sg4::Engine> make_engine() {
  // SimGrid reads its options from argv; the replay's are fixed, and SimGrid's own log lines are kept off stdout.
  static std::string program = "warpsim";
  static std::string quiet = "--log=root.thresh:critical";
  static char* argv[] = {program.data(), quiet.data(), nullptr};
  int argc = 2;
  return std::make_unique<sg4::Engine>(&argc, argv);
}

}  // namespace

double run_replay(const Topology& topology, ReplayFeed& feed, std::size_t copy_engines, const OpsEnded& ops_ended) {
  auto engine = make_engine();
  SimgridNode node = build_simgrid_node(*engine, topology, feed.routes());
  ReplayState state(feed, feed.thread_ids().size(), std::move(node), copy_engines, ops_ended);
  state.run(*engine);
  return units::seconds_from_sim(sg4::Engine::get_clock());
}

ProgramFeed::ProgramFeed(const ReplayProgram& program, const std::vector<OpWork>& work)
    : program_(program), work_(work), next_step_(program.threads.size(), 0), next_op_(program.streams.size(), 0) {
  timings_.op_start.assign(program.ops.size(), 0);
  timings_.op_end.assign(program.ops.size(), 0);
  timings_.op_last_transfer.assign(program.ops.size(), -1);
  for (const HostThreadProgram& thread : program.threads) timings_.host_step_end.emplace_back(thread.steps.size(), 0);
}

std::vector<std::uint64_t> ProgramFeed::thread_ids() const {
  std::vector<std::uint64_t> ids;
  for (const HostThreadProgram& thread : program_.threads) ids.push_back(thread.thread_id);
  return ids;
}

bool ProgramFeed::next_step(std::size_t thread, HostStep& step) {
  const std::vector<HostStep>& steps = program_.threads[thread].steps;
  if (next_step_[thread] == steps.size()) return false;
  step = steps[next_step_[thread]++];
  if (step.kind == HostStep::Kind::kIssue) step.stream = program_.ops[step.op].stream;
  return true;
}

std::optional<FedOp> ProgramFeed::next_op(std::size_t stream) {
  const std::vector<std::size_t>& ops = program_.streams[stream].ops;
  if (next_op_[stream] == ops.size()) return std::nullopt;
  const std::size_t op = ops[next_op_[stream]++];
  return FedOp{op, program_.ops[op].waits_for, work_[op], program_.ops[op].event};
}

void ProgramFeed::step_ended(std::size_t thread, const HostStep&, double end_s) {
  timings_.host_step_end[thread][next_step_[thread] - 1] = end_s;
}

void ProgramFeed::op_ended(const FedOp& op, double start_s, double end_s, std::int16_t last_transfer) {
  timings_.op_start[op.op] = start_s;
  timings_.op_end[op.op] = end_s;
  timings_.op_last_transfer[op.op] = last_transfer;
}

ReplayTimings run_replay(const Topology& topology, const ReplayProgram& program, const std::vector<OpWork>& work,
                         std::size_t copy_engines, const OpsEnded& ops_ended) {
  ProgramFeed feed(program, work);
  const double end = run_replay(topology, feed, copy_engines, ops_ended);
  ReplayTimings timings = feed.timings();
  timings.end = end;
  return timings;
}

}  // namespace warpsim::replay
