#include "replay_engine.h"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <cmath>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "simgrid_node.h"
#include "units.h"

namespace sg4 = simgrid::s4u;

namespace warpsim::replay {
namespace {

// Shared by the actors. SimGrid runs actors one at a time, so plain data needs no locking.
class ReplayState {
 public:
  ReplayState(ReplayFeed& feed, std::size_t threads, SimgridNode node, sg4::Host* actors_host, std::size_t copy_engines,
              const OpsEnded& ops_ended)
      : feed_(feed),
        node_(std::move(node)),
        actors_host_(actors_host),
        ops_ended_(ops_ended),
        threads_running_(threads),
        host_clock_(threads, 0),
        issued_ahead_(threads, 0) {
    for (std::size_t e = 0; e < copy_engines; ++e) copy_engines_.push_back(sg4::Semaphore::create(1));
  }

  // Streams the feed learned of since the last call get their actor.
  // Every semaphore exists before the first actor is created: creating one lets other actors run, which may issue to
  // any of them.
  void add_new_streams() {
    const std::size_t known = issued_.size();
    while (issued_.size() < feed_.stream_count()) {
      issued_.push_back(sg4::Semaphore::create(0));
      issue_times_.emplace_back();
      stream_waiting_.push_back(false);
    }
    for (std::size_t s = known; s < issued_.size(); ++s) {
      const ReplayStream& stream = feed_.stream(s);
      const std::string name =
          "device" + std::to_string(stream.device_id) + ".stream" + std::to_string(stream.stream_id);
      sg4::Actor::create(name, actors_host_, [this, s] { guarded([this, s] { run_stream(s); }); });
    }
  }

  // An exception must not leave an actor (SimGrid would end it silently and the others would wait for it forever):
  // the first is kept and rethrown once the engine stops.
  template <typename Body>
  void guarded(Body body) {
    try {
      body();
    } catch (const simgrid::ForcefulKillException&) {
      throw;  // SimGrid ending the actor: it must go through
    } catch (...) {
      if (!failure_) failure_ = std::current_exception();
    }
  }
  void rethrow_failure() const {
    if (failure_) std::rethrow_exception(failure_);
  }

  // A host thread keeps its own clock and sleeps only where the replay needs it to: before it waits for the GPUs, and
  // after every kRunAheadOps issues. Its compute steps only move its clock, and an issue carries the time it was made,
  // which its stream does not start the operation before: the same times as sleeping through every step, for one
  // SimGrid activity where there were one per step (a sixth of a replay's time went to them).
  void run_host(std::size_t thread) {
    double& clock = host_clock_[thread];
    HostStep step;
    while (feed_.next_step(thread, step)) {
      add_new_streams();
      switch (step.kind) {
        case HostStep::Kind::kCompute: clock += units::sim_from_seconds(step.seconds); break;
        case HostStep::Kind::kIssue: issue(thread, step.stream); break;
        case HostStep::Kind::kWait:
          catch_up(clock);
          issued_ahead_[thread] = 0;
          wait_done(step.op);
          clock = sg4::Engine::get_clock();
          break;
        case HostStep::Kind::kCallStart:
        case HostStep::Kind::kCallEnd: break;
      }
      feed_.step_ended(thread, step, units::seconds_from_sim(clock));
    }
    catch_up(clock);  // the thread's last steps end at its own time, which the replay's end includes
    if (--threads_running_ == 0) tell_streams_nothing_follows();
  }

  // Each stream runs its operations in issue order, none before the host issued it.
  void run_stream(std::size_t stream) {
    while (true) {
      const std::optional<double> issued_at = next_issue(stream);
      std::optional<FedOp> op = feed_.next_op(stream);  // asked at the end too: the feed hears that nothing follows
      if (!issued_at || !op) return;
      catch_up(*issued_at);
      for (std::size_t awaited : op->waits_for) wait_done(awaited);
      execute(*op);
    }
  }

 private:
  // How many operations a host thread may issue ahead of the simulated time before it lets the time catch up: the
  // replay keeps them in memory beyond what the GPUs have been issued and not run yet.
  static constexpr std::size_t kRunAheadOps = 1024;

  static void catch_up(double time) {
    if (time > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(time);
  }

  void issue(std::size_t thread, std::size_t stream) {
    issue_times_.at(stream).push_back(host_clock_[thread]);
    if (stream_waiting_[stream]) {
      stream_waiting_[stream] = false;
      issued_[stream]->release();
    }
    if (++issued_ahead_[thread] < kRunAheadOps) return;
    catch_up(host_clock_[thread]);
    issued_ahead_[thread] = 0;
  }

  // When the stream's next operation was issued (simulated time); nullopt when nothing follows.
  std::optional<double> next_issue(std::size_t stream) {
    // Indexed anew after each wait: streams added meanwhile may have moved the queues.
    while (issue_times_[stream].empty()) {
      if (threads_running_ == 0) return std::nullopt;
      stream_waiting_[stream] = true;
      issued_[stream]->acquire();
    }
    const double issued_at = issue_times_[stream].front();
    issue_times_[stream].pop_front();
    return issued_at;
  }

  void tell_streams_nothing_follows() {
    for (std::size_t s = 0; s < issued_.size(); ++s) {
      if (!stream_waiting_[s]) continue;
      stream_waiting_[s] = false;
      issued_[s]->release();
    }
  }

  bool done(std::size_t op) const { return op < done_.size() && done_[op]; }

  // Only operations someone waits for before they end get a signal: a few per synchronization, not one per operation.
  void wait_done(std::size_t op) {
    if (done(op)) return;
    sg4::SemaphorePtr& signal = done_signal_[op];
    if (!signal) signal = sg4::Semaphore::create(0);
    const sg4::SemaphorePtr held = signal;  // the operation's end erases the entry: the waiters keep it alive
    held->acquire();
    held->release();  // pass it on to the next waiter
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

  Phase start_phase(const OpWork& work, double share, Part part) {
    Phase phase;
    // The local phase runs the SM time of the local work alone (OpWork::local_sm_time_s).
    const double sm_time_s = part == Part::kLocal ? work.local_sm_time_s.value_or(work.sm_time_s) : work.sm_time_s;
    if (part != Part::kRemote && sm_time_s > 0) {
      phase.activities.push_back(sg4::Exec::init()
                                     ->set_flops_amount(units::sm_work_from_seconds(sm_time_s * share))
                                     ->set_host(node_.hosts.at(work.sm_vertex))
                                     ->set_thread_count(static_cast<int>(work.sms_used))
                                     ->start());
      phase.transfer_of.push_back(-1);
    }
    for (std::size_t i = 0; i < work.transfers.size(); ++i) {
      const Transfer& transfer = work.transfers[i];
      if ((part == Part::kRemote && !transfer.remote) || (part == Part::kLocal && transfer.remote)) continue;
      const std::uint64_t bytes = share_of(transfer.bytes, share);
      if (bytes == 0) continue;
      phase.activities.push_back(
          sg4::Comm::sendto_async(node_.hosts.at(transfer.from), node_.hosts.at(transfer.to), bytes));
      phase.transfer_of.push_back(static_cast<std::int16_t>(i));
    }
    return phase;
  }

  // Waits for every activity of the phase; returns the index among the work's transfers of the one that ended last,
  // or -1 when none ended after the SM work. A tie goes to the SM work (started first).
  static std::int16_t wait_all(Phase& phase) {
    std::int16_t last = -1;
    double latest = sg4::Engine::get_clock();
    for (std::size_t i = 0; i < phase.activities.size(); ++i) {
      phase.activities[i]->wait();
      const double now = sg4::Engine::get_clock();
      if (now <= latest) continue;
      latest = now;
      last = phase.transfer_of[i];
    }
    return last;
  }

  // Runs the work after its setup: all of it together, or, for a kernel whose remote and local work partly ran apart
  // (serial_share), the part that overlapped together, then the rest of the remote transfers, then the rest of the SM
  // work and local transfers. Returns the last transfer (wait_all) of the last phase.
  std::int16_t run_work(const OpWork& work) {
    if (work.serial_share <= 0) {
      Phase all = start_phase(work, 1, Part::kAll);
      return wait_all(all);
    }
    std::int16_t last = -1;
    const double together = 1 - work.serial_share;
    if (together > 0) {
      Phase overlapped = start_phase(work, together, Part::kAll);
      last = wait_all(overlapped);
    }
    for (Part part : {Part::kRemote, Part::kLocal}) {
      Phase apart = start_phase(work, work.serial_share, part);
      if (!apart.activities.empty()) last = wait_all(apart);
    }
    return last;
  }

  void execute(const FedOp& op) {
    const OpWork& work = op.work;
    // A copy engine moves one copy at a time: a copy waits for its engine before it starts.
    sg4::SemaphorePtr engine = work.copy_engine ? copy_engines_.at(*work.copy_engine) : nullptr;
    if (engine) engine->acquire();
    // The launch cost is part of a kernel's recorded duration: CUPTI's shortest kernel (empty, one block) lasts it.
    const double start = sg4::Engine::get_clock();
    if (work.setup_s > 0) sg4::this_actor::sleep_for(units::sim_from_seconds(work.setup_s));
    const std::int16_t last_transfer = run_work(work);
    if (engine) engine->release();
    feed_.op_ended(op, units::seconds_from_sim(start), units::seconds_from_sim(sg4::Engine::get_clock()),
                   last_transfer);
    if (done_.size() <= op.op) done_.resize(op.op + 1, false);
    done_[op.op] = true;
    if (const auto signal = done_signal_.find(op.op); signal != done_signal_.end()) {
      signal->second->release();
      done_signal_.erase(signal);
    }
    ++ops_done_;
    if (ops_ended_) ops_ended_(ops_done_);
  }

  ReplayFeed& feed_;
  SimgridNode node_;
  sg4::Host* actors_host_;
  const OpsEnded& ops_ended_;
  std::size_t threads_running_;
  std::size_t ops_done_ = 0;
  std::vector<bool> done_;
  std::unordered_map<std::size_t, sg4::SemaphorePtr> done_signal_;
  std::vector<double> host_clock_;         // per host thread, simulated time: at or ahead of the engine's clock
  std::vector<std::size_t> issued_ahead_;  // per host thread: operations issued since it last let the time catch up
  std::vector<std::deque<double>> issue_times_;  // per stream, of the operations issued and not yet taken
  std::vector<bool> stream_waiting_;             // per stream: waiting for an issue (next_issue)
  std::vector<sg4::SemaphorePtr> issued_;
  std::vector<sg4::SemaphorePtr> copy_engines_;
  std::exception_ptr failure_;
};

std::unique_ptr<sg4::Engine> make_engine() {
  // SimGrid reads its options from argv; the replay's are fixed, and SimGrid's own log lines are kept off stdout.
  static std::string program = "warpsim";
  static std::string quiet = "--log=root.thresh:critical";
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // Under AddressSanitizer (scripts/sanitize.sh) or ThreadSanitizer actors run on threads: SimGrid's default
  // contexts switch stacks behind the sanitizer's back. Given at construction: the context factory is chosen then.
  static std::string contexts = "--cfg=contexts/factory:thread";
  static char* argv[] = {program.data(), quiet.data(), contexts.data(), nullptr};
  int argc = 3;
#else
  static char* argv[] = {program.data(), quiet.data(), nullptr};
  int argc = 2;
#endif
  return std::make_unique<sg4::Engine>(&argc, argv);
}

}  // namespace

double run_replay(const Topology& topology, ReplayFeed& feed, std::size_t copy_engines, const OpsEnded& ops_ended) {
  auto engine = make_engine();
  SimgridNode node = build_simgrid_node(*engine, topology, feed.routes());
  sg4::Host* cpu = node.hosts.at(topology.host());  // actors only coordinate: where they live costs nothing
  const std::vector<std::uint64_t> threads = feed.thread_ids();
  ReplayState state(feed, threads.size(), std::move(node), cpu, copy_engines, ops_ended);
  for (std::size_t t = 0; t < threads.size(); ++t) {
    sg4::Actor::create("host.thread" + std::to_string(threads[t]), cpu,
                       [&state, t] { state.guarded([&state, t] { state.run_host(t); }); });
  }
  state.add_new_streams();
  engine->run();
  state.rethrow_failure();
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
