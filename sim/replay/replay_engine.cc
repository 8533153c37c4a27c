#include "replay_engine.h"

#include <simgrid/s4u.hpp>

#include <memory>
#include <string>

#include "simgrid_node.h"
#include "units.h"

namespace sg4 = simgrid::s4u;

namespace warpsim::replay {
namespace {

// Shared by the actors. SimGrid runs actors one at a time, so plain data needs no locking.
class ReplayState {
 public:
  ReplayState(const ReplayProgram& program, const std::vector<OpWork>& work, SimgridNode node, std::size_t copy_engines,
              const OpsEnded& ops_ended)
      : program_(program),
        work_(work),
        node_(std::move(node)),
        ops_ended_(ops_ended),
        done_(program.ops.size(), false),
        done_signal_(program.ops.size()),
        timings_{} {
    timings_.op_start.assign(program.ops.size(), 0);
    timings_.op_end.assign(program.ops.size(), 0);
    timings_.op_last_transfer.assign(program.ops.size(), -1);
    for (const HostThreadProgram& thread : program.threads) timings_.host_step_end.emplace_back(thread.steps.size(), 0);
    for (std::size_t s = 0; s < program.streams.size(); ++s) issued_.push_back(sg4::Semaphore::create(0));
    for (std::size_t e = 0; e < copy_engines; ++e) copy_engines_.push_back(sg4::Semaphore::create(1));
    // Only operations someone waits for get a signal: a few per synchronization, not one per operation.
    for (const ReplayOp& op : program.ops) {
      for (std::size_t awaited : op.waits_for) make_signal(awaited);
    }
    for (const HostThreadProgram& thread : program.threads) {
      for (const HostStep& step : thread.steps) {
        if (step.kind == HostStep::Kind::kWait) make_signal(step.op);
      }
    }
  }

  void run_host(std::size_t thread) {
    const std::vector<HostStep>& steps = program_.threads[thread].steps;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const HostStep& step = steps[i];
      switch (step.kind) {
        case HostStep::Kind::kCompute: sg4::this_actor::sleep_for(units::sim_from_seconds(step.seconds)); break;
        case HostStep::Kind::kIssue: issued_[program_.ops[step.op].stream]->release(); break;
        case HostStep::Kind::kWait: wait_done(step.op); break;
        case HostStep::Kind::kCallStart:
        case HostStep::Kind::kCallEnd: break;
      }
      timings_.host_step_end[thread][i] = sg4::Engine::get_clock();
    }
  }

  void run_stream(std::size_t stream) {
    for (std::size_t op : program_.streams[stream].ops) {
      issued_[stream]->acquire();
      for (std::size_t awaited : program_.ops[op].waits_for) wait_done(awaited);
      execute(op);
    }
  }

  ReplayTimings timings() const {
    ReplayTimings result = timings_;
    result.end = units::seconds_from_sim(sg4::Engine::get_clock());
    for (double& t : result.op_start) t = units::seconds_from_sim(t);
    for (double& t : result.op_end) t = units::seconds_from_sim(t);
    for (auto& thread : result.host_step_end) {
      for (double& t : thread) t = units::seconds_from_sim(t);
    }
    return result;
  }

 private:
  void make_signal(std::size_t op) {
    if (!done_signal_[op]) done_signal_[op] = sg4::Semaphore::create(0);
  }

  void wait_done(std::size_t op) {
    if (done_[op]) return;
    done_signal_[op]->acquire();
    done_signal_[op]->release();  // pass it on to the next waiter
  }

  // Waits for every activity; returns the index among the transfers (those after the first `sm_activities`) of the
  // one that ended last, or -1 when none ended after the SM work. A tie goes to the SM work.
  static std::int16_t wait_all(std::vector<sg4::ActivityPtr>& activities, std::size_t sm_activities) {
    std::int16_t last = -1;
    double latest = sg4::Engine::get_clock();
    for (std::size_t i = 0; i < activities.size(); ++i) {
      activities[i]->wait();
      const double now = sg4::Engine::get_clock();
      if (now <= latest) continue;
      latest = now;
      last = i < sm_activities ? -1 : static_cast<std::int16_t>(i - sm_activities);
    }
    return last;
  }

  void execute(std::size_t op) {
    const OpWork& work = work_[op];
    // A copy engine moves one copy at a time: a copy waits for its engine before it starts.
    sg4::SemaphorePtr engine = work.copy_engine ? copy_engines_.at(*work.copy_engine) : nullptr;
    if (engine) engine->acquire();
    // The launch cost is part of a kernel's recorded duration: CUPTI's shortest kernel (empty, one block) lasts it.
    timings_.op_start[op] = sg4::Engine::get_clock();
    if (work.setup_s > 0) sg4::this_actor::sleep_for(units::sim_from_seconds(work.setup_s));
    std::vector<sg4::ActivityPtr> activities;
    if (work.sm_time_s > 0) {
      activities.push_back(sg4::Exec::init()
                               ->set_flops_amount(units::sm_work_from_seconds(work.sm_time_s))
                               ->set_host(node_.hosts.at(work.sm_vertex))
                               ->set_thread_count(static_cast<int>(work.sms_used))
                               ->start());
    }
    for (const Transfer& transfer : work.transfers) {
      activities.push_back(sg4::Comm::sendto_async(node_.hosts.at(transfer.from), node_.hosts.at(transfer.to),
                                                   transfer.bytes));
    }
    timings_.op_last_transfer[op] = wait_all(activities, work.sm_time_s > 0 ? 1 : 0);
    if (engine) engine->release();
    timings_.op_end[op] = sg4::Engine::get_clock();
    done_[op] = true;
    if (done_signal_[op]) done_signal_[op]->release();
    ++ops_done_;
    if (ops_ended_) ops_ended_(ops_done_);
  }

  const ReplayProgram& program_;
  const std::vector<OpWork>& work_;
  SimgridNode node_;
  const OpsEnded& ops_ended_;
  std::size_t ops_done_ = 0;
  std::vector<bool> done_;
  std::vector<sg4::SemaphorePtr> done_signal_;
  std::vector<sg4::SemaphorePtr> issued_;
  std::vector<sg4::SemaphorePtr> copy_engines_;
  ReplayTimings timings_;
};

std::unique_ptr<sg4::Engine> make_engine() {
  // SimGrid reads its options from argv; the replay's are fixed, and SimGrid's own log lines are kept off stdout.
  static std::string program = "warpsim";
  static std::string quiet = "--log=root.thresh:critical";
#if defined(__SANITIZE_ADDRESS__)
  // Under AddressSanitizer (scripts/sanitize.sh) actors run on threads: SimGrid's default contexts switch stacks
  // behind ASan's back. Given at construction: the context factory is chosen then.
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

ReplayTimings run_replay(const Topology& topology, const ReplayProgram& program, const std::vector<OpWork>& work,
                         std::size_t copy_engines, const OpsEnded& ops_ended) {
  auto engine = make_engine();
  SimgridNode node = build_simgrid_node(*engine, topology, transfer_routes(work));
  sg4::Host* cpu = node.hosts.at(topology.host());  // actors only coordinate: where they live costs nothing
  ReplayState state(program, work, std::move(node), copy_engines, ops_ended);
  for (std::size_t t = 0; t < program.threads.size(); ++t) {
    sg4::Actor::create("host.thread" + std::to_string(program.threads[t].thread_id), cpu,
                       [&state, t] { state.run_host(t); });
  }
  for (std::size_t s = 0; s < program.streams.size(); ++s) {
    const std::string name = "device" + std::to_string(program.streams[s].device_id) + ".stream" +
                             std::to_string(program.streams[s].stream_id);
    sg4::Actor::create(name, cpu, [&state, s] { state.run_stream(s); });
  }
  engine->run();
  return state.timings();
}

}  // namespace warpsim::replay
