#include "simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "counter_lender.h"
#include "host_program.h"
#include "kernel_bound.h"
#include "op_work.h"
#include "replay_engine.h"
#include "replay_program.h"
#include "simulated_header.h"
#include "topology.h"
#include "trace_reader.h"

namespace warpsim::replay {
namespace {

std::uint32_t device_of(const Event& event) {
  if (event.has_kernel()) return event.kernel().device_id();
  if (event.has_memcpy()) return event.memcpy().device_id();
  if (event.has_memset()) return event.memset().device_id();
  if (event.has_stream()) return event.stream().device_id();
  if (event.has_sync()) return event.sync().device_id();
  return 0;  // host-side events (API calls, threads) name no device
}

// The highest device an event names: a copy names its source and destination too.
std::uint32_t highest_device(const Event& event) {
  const std::uint32_t device = device_of(event);
  if (!event.has_memcpy()) return device;
  return std::max({device, event.memcpy().src_device_id(), event.memcpy().dst_device_id()});
}

// What the replay keeps of a kernel once its work is predicted: where and when it ran (device, stream, correlation,
// times, graph node), not what it was: its counters, summaries, name and shape are the bulk of a kernel event (a
// million of them held whole took 1.1 GB), and the output pass reads them again from the source.
// Released and deleted, not cleared: clear_*() on a message field keeps the submessage (and its own submessages)
// allocated for reuse, which held on to most of what stripping was meant to free.
void strip_for_replay(Event& event) {
  KernelLaunch& kernel = *event.mutable_kernel();
  delete kernel.release_counters();
  delete kernel.release_sass();
  delete kernel.release_load_sharing();
  delete kernel.release_grid();
  delete kernel.release_block();
  delete kernel.release_cluster();
  delete kernel.release_name();
}

double duration_s(const KernelLaunch& kernel) {
  return static_cast<double>(kernel.end_ns() - kernel.start_ns()) * 1e-9;
}

models::KernelPrediction recorded_time(const KernelLaunch& launch, const platform::GpuSpec& gpu) {
  models::KernelPrediction prediction;
  prediction.sm_time_s = static_cast<double>(launch.end_ns() - launch.start_ns()) * 1e-9;
  prediction.sms_used = gpu.sm_count();
  prediction.launch_overhead_s = 0;  // CUPTI's duration already holds the launch cost (replay README)
  return prediction;
}

// The GPUs a kernel on `gpu` can read remotely: its peers in the recording, else every other GPU of the node.
std::vector<std::vector<std::uint32_t>> peers_per_gpu(const TraceHeader& header, std::uint32_t gpu_count) {
  std::vector<std::vector<std::uint32_t>> peers(gpu_count);
  for (const Device& device : header.devices()) {
    if (device.id() >= gpu_count) continue;
    for (std::uint32_t peer : device.peer_access_device_ids()) {
      if (peer < gpu_count && peer != device.id()) peers[device.id()].push_back(peer);
    }
  }
  for (std::uint32_t gpu = 0; gpu < gpu_count; ++gpu) {
    if (!peers[gpu].empty()) continue;
    for (std::uint32_t other = 0; other < gpu_count; ++other) {
      if (other != gpu) peers[gpu].push_back(other);
    }
  }
  return peers;
}

// The L2 slices of each recording device whose GPU the shipped specs know by its CUDA name (0 elsewhere): the
// busiest-slice counters of its kernels are that GPU's.
std::map<std::uint32_t, std::uint32_t> recorded_l2_slices(const TraceHeader& header,
                                                          const platform::Platform& platform) {
  std::map<std::uint32_t, std::uint32_t> slices;
  for (const Device& device : header.devices()) {
    const auto spec = platform.gpus_by_device_name.find(device.name());
    if (spec != platform.gpus_by_device_name.end()) slices[device.id()] = spec->second.memory().l2_slices();
  }
  return slices;
}

// Copy engines from the device's properties: with two or more, host-to-device and device-to-host copies each have
// their own and run one at a time per direction; with one, they share it. Other copies need no engine here.
class CopyEngines {
 public:
  explicit CopyEngines(const TraceHeader& header) {
    for (const Device& device : header.devices()) {
      const std::uint32_t count = device.has_async_engine_count() ? device.async_engine_count() : 2;
      const std::size_t to_device = count_++;
      const std::size_t to_host = count == 1 ? to_device : count_++;
      engines_[device.id()] = {to_device, to_host};
    }
  }
  std::optional<std::size_t> engine_of(const Memcpy& copy) const {
    const auto it = engines_.find(copy.device_id());
    if (it == engines_.end()) return std::nullopt;
    if (copy.kind() == Memcpy::HTOD) return it->second.first;
    if (copy.kind() == Memcpy::DTOH) return it->second.second;
    return std::nullopt;
  }
  std::size_t count() const { return count_; }

 private:
  std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> engines_;  // device -> (to device, to host)
  std::size_t count_ = 0;
};

// How often the progress callback hears of events or operations: rarely enough to cost nothing.
constexpr std::size_t kProgressEvery = 4096;
constexpr std::size_t kEstimatedNamesKept = 3;

// Simulated start and end of an event on the recording's clock, where the simulation moves it.
struct NewTimes {
  std::uint64_t start_ns = 0, end_ns = 0;
  bool set = false;
  std::uint16_t bound = 0;  // a kernel's: what bounded it (BoundTable id; 0: none)
};

class Simulation {
 public:
  Simulation(EventSource& source, const platform::Platform& platform, const models::KernelModel* model,
             const SimulationOptions& options)
      : source_(source),
        platform_(platform),
        model_(model),
        options_(options),
        topology_(Topology::from_platform(platform)),
        engines_(source.header()),
        peers_(peers_per_gpu(source.header(), static_cast<std::uint32_t>(platform.gpus.size()))),
        recorded_l2_slices_(recorded_l2_slices(source.header(), platform)) {}

  SimulationResult run(const SimulationOutput& output) {
    result_.source_mode = source_.header().mode();
    load();
    refuse_guesses_alone();
    api_order_ = sort_by_api_order(events_);
    ReplayProgram program = build_replay_program(events_);
    const HostOptions host{platform_.node.host().api_call_overhead_us() * 1e-6, options_.host_scale};
    result_.host = build_host_threads(events_, program, host);
    std::vector<OpWork> work;
    work.reserve(program.ops.size());
    for (const ReplayOp& op : program.ops) work.push_back(std::move(work_[api_order_[op.event]]));
    work_ = {};
    const ReplayTimings timings = run_replay(topology_, program, work, engines_.count(), [&](std::size_t ended) {
      if (options_.progress && ended % kProgressEvery == 0)
        options_.progress("replaying", "operations", ended, work.size());
    });
    const std::vector<NewTimes> times = simulated_times(program, timings, work);
    events_ = {};
    result_.header = simulated_header(source_.header(), source_.path(), platform_, model_name(),
                                      options_.reuse_recorded_kernel_times);
    result_.header.mutable_simulation()->set_host_scale(options_.host_scale);
    result_.header.mutable_simulation()->set_host_time_recorded(result_.host.from_api_calls);
    if (output.header) output.header(result_.header);
    if (output.event) emit(times, output);
    return std::move(result_);
  }

 private:
  static bool replayed(const Event& event) { return !event.has_marker() && event.kind_case() != Event::KIND_NOT_SET; }

  // First pass: keeps each replayed event and its operation's work. Kernels are predicted as they come and kept
  // without their counters, but for those that borrow counters, perhaps from a launch later in the trace.
  void load() {
    std::vector<std::size_t> borrowers;
    source_.for_each([&](Event& event) {
      const std::size_t at = source_events_++;
      if (options_.progress && at % kProgressEvery == 0) options_.progress("reading", "events", at, 0);
      if (!replayed(event)) return;
      check_device(event);
      const bool kernel = event.has_kernel();
      const bool borrows = kernel && !has_core_counters(event.kernel());
      if (kernel) {
        result_.recorded_kernel_s += duration_s(event.kernel());
        lender_.offer(event.kernel());
      }
      if (borrows) borrowers.push_back(events_.size());
      model_bound_.push_back(0);
      work_.push_back(borrows ? OpWork{} : op_work(event, model_bound_.back()));
      if (kernel && !borrows) strip_for_replay(event);
      events_.push_back(std::move(event));
      source_index_.push_back(at);
    });
    for (const std::size_t i : borrowers) {
      if (lender_.lend(*events_[i].mutable_kernel())) ++result_.counters_borrowed;
      work_[i] = op_work(events_[i], model_bound_[i]);
      strip_for_replay(events_[i]);
    }
    // Grown by doubling while the trace streamed in: up to half of each is slack, held through the replay.
    events_.shrink_to_fit();
    work_.shrink_to_fit();
    source_index_.shrink_to_fit();
    model_bound_.shrink_to_fit();
  }

  void note_estimate(const KernelLaunch& launch) {
    ++result_.kernels_without_counters;
    std::vector<std::string>& names = result_.estimated_kernel_names;
    if (names.size() < kEstimatedNamesKept && std::find(names.begin(), names.end(), launch.name()) == names.end())
      names.push_back(launch.name());
  }

  // A timeline-only recording: every kernel time would be a guess, which users took for a prediction.
  void refuse_guesses_alone() const {
    if (options_.allow_estimates || result_.kernels == 0 || result_.kernels_without_counters < result_.kernels) return;
    throw std::runtime_error(fmt::format(
        "{}: none of its {} kernels has counters (a timeline-only recording?): their times would be guesses from the "
        "launch configuration. Record a counters run and merge it (warpsim record --mode counters, warpsim merge), or "
        "pass --allow-estimates",
        source_.path(), result_.kernels));
  }

  void check_device(const Event& event) const {
    const std::uint32_t device = highest_device(event);
    if (device < platform_.gpus.size()) return;
    throw std::runtime_error(fmt::format("{}: uses device {} but node '{}' ({}) has {} GPU(s)", source_.path(), device,
                                         platform_.node.name(), platform_.node_file.string(), platform_.gpus.size()));
  }

  std::string model_name() const { return model_ ? std::string(model_->name()) : "recorded kernel times"; }

  // `bound`: a kernel's bound as its model names it (BoundTable id), left as it is for other operations.
  OpWork op_work(const Event& event, std::uint16_t& bound) {
    if (event.has_memcpy()) {
      OpWork work = memcpy_work(event.memcpy(), topology_, platform_);
      work.copy_engine = engines_.engine_of(event.memcpy());
      return work;
    }
    if (event.has_memset()) return memset_work(event.memset(), topology_, platform_);
    if (!event.has_kernel()) return {};
    const KernelLaunch& launch = event.kernel();
    const platform::GpuSpec& gpu = platform_.gpus[launch.device_id()];
    ++result_.kernels;
    models::KernelPrediction prediction;
    if (options_.reuse_recorded_kernel_times || !model_) {
      prediction = recorded_time(launch, gpu);
    } else {
      const auto slices = recorded_l2_slices_.find(launch.device_id());
      const std::uint32_t recorded_slices = slices == recorded_l2_slices_.end() ? 0 : slices->second;
      prediction = model_->predict(models::KernelView::of(launch, recorded_slices), gpu);
      if (prediction.estimated_without_counters) note_estimate(launch);
    }
    bound = bounds_.add(model_bound(prediction, options_.reuse_recorded_kernel_times || !model_));
    return kernel_op_work(prediction, topology_, launch.device_id(), peers_[launch.device_id()]);
  }

  // Simulated times on the recording's clock, per source event: simulated time 0 is the recording's first API call
  // or operation.
  std::vector<NewTimes> simulated_times(const ReplayProgram& program, const ReplayTimings& timings,
                                        const std::vector<OpWork>& work) {
    const std::uint64_t base = recording_start_ns(events_);
    auto at = [base](double seconds) { return base + static_cast<std::uint64_t>(std::llround(seconds * 1e9)); };
    const std::vector<std::pair<double, double>> calls = call_times(program, timings);
    double first = -1, last = 0;
    auto extend = [&](double start, double end) {
      first = first < 0 ? start : std::min(first, start);
      last = std::max(last, end);
    };
    std::vector<std::size_t> op_of_event(events_.size(), kNoOp);
    for (std::size_t op = 0; op < program.ops.size(); ++op) op_of_event[program.ops[op].event] = op;
    std::vector<NewTimes> times(source_events_);
    for (std::size_t i = 0; i < events_.size(); ++i) {
      const Event& event = events_[i];
      NewTimes& moved = times[source_index_[api_order_[i]]];
      if (const std::size_t op = op_of_event[i]; op != kNoOp) {
        moved = {at(timings.op_start[op]), at(timings.op_end[op]), true};
        extend(timings.op_start[op], timings.op_end[op]);
        if (event.has_kernel()) {
          result_.simulated_kernel_s += static_cast<double>(moved.end_ns - moved.start_ns) * 1e-9;
          moved.bound =
              kernel_bound(event.kernel(), work[op], timings.op_last_transfer[op], model_bound_[api_order_[i]]);
        }
      } else if (calls[i].first >= 0 && (event.has_api_call() || (event.has_sync() && event.sync().type() != Synchronization::EVENT_RECORD))) {
        moved = {at(calls[i].first), at(calls[i].second), true};
        if (event.has_api_call()) extend(calls[i].first, calls[i].second);
      }
    }
    result_.span_s = first < 0 ? 0 : last - first;
    return times;
  }

  // The model's bound where the SM work ended last, else the node resource of the transfer that ended after it.
  std::uint16_t kernel_bound(const KernelLaunch& kernel, const OpWork& work, std::int16_t last_transfer,
                             std::uint16_t model) {
    if (last_transfer < 0 || static_cast<std::size_t>(last_transfer) >= work.transfers.size()) return model;
    return bounds_.add(
        transfer_bound(work.transfers[static_cast<std::size_t>(last_transfer)], topology_, kernel.device_id()));
  }

  // Second pass: every replayed event as read, with the counters it was predicted with and its new times.
  void emit(const std::vector<NewTimes>& times, const SimulationOutput& output) {
    std::size_t index = 0;
    source_.for_each([&](Event& event) {
      const std::size_t at = index++;
      if (options_.progress && at % kProgressEvery == 0) options_.progress("writing", "events", at, times.size());
      if (!replayed(event)) return;
      if (at >= times.size()) throw std::runtime_error(source_.path() + ": changed while being simulated");
      if (event.has_kernel()) lender_.lend(*event.mutable_kernel());
      if (times[at].set) set_times(event, times[at].start_ns, times[at].end_ns);
      if (const SimulatedBound* bound = bounds_.find(times[at].bound); bound && event.has_kernel())
        *event.mutable_kernel()->mutable_simulated_bound() = *bound;
      output.event(event);
    });
  }

  // When the host began and ended the API call behind each event (-1: none): the call's own steps for API calls,
  // else the call that issued or waited on the event; traces without API calls: from the previous host step to the
  // event's last one.
  std::vector<std::pair<double, double>> call_times(const ReplayProgram& program, const ReplayTimings& timings) const {
    std::vector<std::pair<double, double>> times(events_.size(), {-1.0, -1.0});
    for (std::size_t t = 0; t < program.threads.size(); ++t) {
      const std::vector<HostStep>& steps = program.threads[t].steps;
      double previous = 0, call_start = -1;
      for (std::size_t i = 0; i < steps.size(); ++i) {
        const double end = timings.host_step_end[t][i];
        const HostStep& step = steps[i];
        if (step.kind == HostStep::Kind::kCallStart) call_start = end;
        if (step.kind == HostStep::Kind::kCallEnd) {
          times[step.event] = {call_start, end};
          call_start = -1;
        }
        if (step.event != kNoOp && step.kind != HostStep::Kind::kCallStart && step.kind != HostStep::Kind::kCallEnd)
          times[step.event] = {call_start >= 0 ? call_start : previous, end};
        if (step.kind != HostStep::Kind::kCallStart) previous = end;
      }
    }
    return times;
  }

  static void set_times(Event& event, std::uint64_t start, std::uint64_t end) {
    if (event.has_api_call()) { event.mutable_api_call()->set_start_ns(start); event.mutable_api_call()->set_end_ns(end); }
    if (event.has_sync()) { event.mutable_sync()->set_start_ns(start); event.mutable_sync()->set_end_ns(end); }
    if (event.has_kernel()) { event.mutable_kernel()->set_start_ns(start); event.mutable_kernel()->set_end_ns(end); }
    if (event.has_memcpy()) { event.mutable_memcpy()->set_start_ns(start); event.mutable_memcpy()->set_end_ns(end); }
    if (event.has_memset()) { event.mutable_memset()->set_start_ns(start); event.mutable_memset()->set_end_ns(end); }
  }

  EventSource& source_;
  const platform::Platform& platform_;
  const models::KernelModel* model_;
  const SimulationOptions& options_;
  Topology topology_;
  CopyEngines engines_;
  std::vector<std::vector<std::uint32_t>> peers_;
  std::map<std::uint32_t, std::uint32_t> recorded_l2_slices_;  // device -> its GPU's L2 slices, where known
  CounterLender lender_;
  std::size_t source_events_ = 0;          // every event of the source, markers included
  std::vector<Event> events_;              // the replayed ones, stripped; in API order once loaded
  std::vector<std::size_t> source_index_;  // per event as loaded: its position in the source
  std::vector<OpWork> work_;               // per event as loaded: its operation's work (empty: none)
  std::vector<std::uint16_t> model_bound_;  // per event as loaded: a kernel's bound as its model names it
  BoundTable bounds_;
  std::vector<std::size_t> api_order_;     // position in API order -> position as loaded
  SimulationResult result_;
};

}  // namespace

SourceTrace read_source_trace(const std::string& path) {
  TraceReader reader(path);
  SourceTrace trace{path, reader.header(), {}};
  Event event;
  while (reader.next(event)) trace.events.push_back(event);
  if (reader.truncation()) std::cerr << "warning: " << reader.truncation_warning() << '\n';
  return trace;
}

SimulationResult simulate(EventSource& source, const platform::Platform& platform, const models::KernelModel* model,
                          const SimulationOptions& options, const SimulationOutput& output) {
  if (!model && !options.reuse_recorded_kernel_times) throw std::invalid_argument("simulate: no kernel model given");
  return Simulation(source, platform, model, options).run(output);
}

SimulationResult simulate(const SourceTrace& trace, const platform::Platform& platform,
                          const models::KernelModel* model, const SimulationOptions& options) {
  EventsInMemory source(trace.path, trace.header, trace.events);
  std::vector<Event> events;
  SimulationResult result =
      simulate(source, platform, model, options,
               {[](const TraceHeader&) {}, [&events](const Event& event) { events.push_back(event); }});
  result.events = std::move(events);
  return result;
}

}  // namespace warpsim::replay
