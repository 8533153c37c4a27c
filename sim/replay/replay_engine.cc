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
  ReplayState(const ReplayProgram& program, const std::vector<OpWork>& work, SimgridNode node)
      : program_(program), work_(work), node_(std::move(node)), done_(program.ops.size(), false),
        done_signal_(program.ops.size()), timings_{} {
    timings_.op_start.assign(program.ops.size(), 0);
    timings_.op_end.assign(program.ops.size(), 0);
    timings_.host_step_end.assign(program.host_steps.size(), 0);
    for (std::size_t s = 0; s < program.streams.size(); ++s) issued_.push_back(sg4::Semaphore::create(0));
    // Only operations someone waits for get a signal: a few per synchronization, not one per operation.
    for (const ReplayOp& op : program.ops) {
      for (std::size_t awaited : op.waits_for) make_signal(awaited);
    }
    for (const HostStep& step : program.host_steps) {
      if (step.kind == HostStep::Kind::kWait) make_signal(step.op);
    }
  }

  void run_host(double api_call_overhead) {
    for (std::size_t i = 0; i < program_.host_steps.size(); ++i) {
      const HostStep& step = program_.host_steps[i];
      if (step.kind == HostStep::Kind::kIssue) {
        sg4::this_actor::sleep_for(api_call_overhead);
        issued_[program_.ops[step.op].stream]->release();
      } else {
        wait_done(step.op);
      }
      timings_.host_step_end[i] = sg4::Engine::get_clock();
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
    for (double& t : result.host_step_end) t = units::seconds_from_sim(t);
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

  void execute(std::size_t op) {
    const OpWork& work = work_[op];
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
    for (auto& activity : activities) activity->wait();
    timings_.op_end[op] = sg4::Engine::get_clock();
    done_[op] = true;
    if (done_signal_[op]) done_signal_[op]->release();
  }

  const ReplayProgram& program_;
  const std::vector<OpWork>& work_;
  SimgridNode node_;
  std::vector<bool> done_;
  std::vector<sg4::SemaphorePtr> done_signal_;
  std::vector<sg4::SemaphorePtr> issued_;
  ReplayTimings timings_;
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

ReplayTimings run_replay(const Topology& topology, const ReplayProgram& program, const std::vector<OpWork>& work,
                         double api_call_overhead_s) {
  auto engine = make_engine();
  SimgridNode node = build_simgrid_node(*engine, topology);
  sg4::Host* cpu = node.hosts.at(topology.host());  // actors only coordinate: where they live costs nothing
  ReplayState state(program, work, std::move(node));
  const double api_call_overhead = units::sim_from_seconds(api_call_overhead_s);
  sg4::Actor::create("host", cpu, [&state, api_call_overhead] { state.run_host(api_call_overhead); });
  for (std::size_t s = 0; s < program.streams.size(); ++s) {
    const std::string name = "device" + std::to_string(program.streams[s].device_id) + ".stream" +
                             std::to_string(program.streams[s].stream_id);
    sg4::Actor::create(name, cpu, [&state, s] { state.run_stream(s); });
  }
  engine->run();
  return state.timings();
}

}  // namespace warpsim::replay
