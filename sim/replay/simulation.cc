#include "simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "api_order_reader.h"
#include "counter_lender.h"
#include "host_program.h"
#include "kernel_bound.h"
#include "op_work.h"
#include "replay_engine.h"
#include "replay_program.h"
#include "simulated_header.h"
#include "topology.h"
#include "trace_feed.h"
#include "trace_reader.h"
#include "traffic_overlap.h"

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

using RouteSet = std::set<std::pair<std::size_t, std::size_t>>;  // (from, to) topology vertices

// The first start and last end of API calls and GPU operations, simulated.
class Span {
 public:
  void extend(double start, double end) {
    first_ = first_ < 0 ? start : std::min(first_, start);
    last_ = std::max(last_, end);
  }
  double seconds() const { return first_ < 0 ? 0 : last_ - first_; }

 private:
  double first_ = -1, last_ = 0;
};

// Where a host thread is in its calls, for the times of the API call behind each event.
struct ThreadClock {
  double previous = 0;     // when its last step (not a call's start) ended
  double call_start = -1;  // when its current call began (-1: not in one)
};

// Three passes over the source: the first indexes it (API order, devices, threads, streams, routes, lenders), the
// second replays it in API order, predicting each operation as it is read (memory: what has been read and not yet
// run, and a few bytes per event), the third gives the output each event as recorded with its new times.
class Simulation : public ReplayListener {
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
    index();
    replay();
    refuse_guesses_alone();
    result_.header = simulated_header(source_.header(), source_.path(), platform_, model_name(),
                                      options_.reuse_recorded_kernel_times);
    result_.header.mutable_simulation()->set_host_scale(options_.host_scale);
    result_.header.mutable_simulation()->set_host_time_recorded(result_.host.from_api_calls);
    if (output.header) output.header(result_.header);
    if (output.event) emit(output);
    return std::move(result_);
  }

  void op_ended(std::size_t source_index, const FedOp& op, const OpNotes& notes, double start_s, double end_s,
                std::int16_t last_transfer) override {
    NewTimes& moved = times_[source_index];
    moved = {at(start_s), at(end_s), true};
    span_.extend(start_s, end_s);
    if (notes.kernel_device) {
      simulated_kernel_ns_ += moved.end_ns - moved.start_ns;
      moved.bound = kernel_bound(*notes.kernel_device, op.work, last_transfer, notes.model_bound);
    }
    if (options_.progress && ++ops_ended_ % kProgressEvery == 0)
      options_.progress("replaying", "operations", ops_ended_, operations_);
  }

  // When the host began and ended the API call behind each event: the call's own steps for API calls, else the call
  // that issued or waited on the event; traces without API calls: from the previous host step to the event's last.
  void step_ended(std::size_t thread, const HostStep& step, std::size_t source_index, CallTimeKind kind,
                  double end_s) override {
    ThreadClock& clock = clocks_[thread];
    if (step.kind == HostStep::Kind::kCallStart) clock.call_start = end_s;
    if (step.kind == HostStep::Kind::kCallEnd) {
      call_time(source_index, kind, clock.call_start, end_s);
      clock.call_start = -1;
    }
    if (step.event != kNoOp && step.kind != HostStep::Kind::kCallStart && step.kind != HostStep::Kind::kCallEnd)
      call_time(source_index, kind, clock.call_start >= 0 ? clock.call_start : clock.previous, end_s);
    if (step.kind != HostStep::Kind::kCallStart) clock.previous = end_s;
  }

 private:
  // First pass: checks every event's device, offers kernels' counters to the lender, and keeps what the replay needs
  // before it starts: API order, threads, stream kinds, the recording's start and the routes operations may use.
  void index() {
    std::set<ThreadKey> threads;
    RouteSet routes;
    std::uint64_t first_start = UINT64_MAX;
    source_.for_each([&](Event& event) {
      const std::size_t at = source_events_++;
      if (options_.progress && at % kProgressEvery == 0) options_.progress("reading", "events", at, 0);
      if (!replayed(event)) return;
      check_device(event);
      index_.add(event, at);
      if (event.has_kernel()) {
        result_.recorded_kernel_s += duration_s(event.kernel());
        lender_.offer(event.kernel());
      }
      if (event.has_stream())
        stream_kinds_[{event.stream().device_id(), event.stream().stream_id()}] = event.stream().kind();
      if (event.has_api_call()) threads.insert({event.api_call().process_id(), event.api_call().thread_id()});
      if (const std::uint64_t start = start_of(event); start > 0 && !event.has_sync())
        first_start = std::min(first_start, start);
      if (is_operation(event)) {
        ++operations_;
        add_routes(event, routes);
      }
    });
    index_.finish();
    add_kernel_routes(routes);
    recording_start_ns_ = first_start == UINT64_MAX ? 0 : first_start;
    threads_.assign(threads.begin(), threads.end());
    routes_.assign(routes.begin(), routes.end());
    times_.resize(source_events_);
  }

  // The vertex pairs an operation's transfers may use. A predicted kernel reads its GPU's memory and L2, host memory
  // and its peers' memory, as much of each as the model predicts (counters borrowed or not): every such pair its GPU
  // can use is added once the pass has ended, rather than predicting each kernel here as well as in the replay.
  // Copies and memsets (and kernels at their recorded times), from their work.
  void add_routes(const Event& event, RouteSet& routes) {
    const bool predicted = model_ && !options_.reuse_recorded_kernel_times;
    if (predicted && event.has_kernel()) {
      kernel_gpus_.insert(event.kernel().device_id());
      return;
    }
    for (const Transfer& transfer : op_work(event).work.transfers) routes.insert({transfer.from, transfer.to});
  }

  void add_kernel_routes(RouteSet& routes) const {
    for (const std::uint32_t gpu : kernel_gpus_) {
      const std::size_t sm = topology_.gpu_sm(gpu);
      std::vector<std::size_t> sources{topology_.gpu_memory(gpu), topology_.gpu_l2(gpu), topology_.host()};
      for (std::uint32_t peer : peers_[gpu]) sources.push_back(topology_.gpu_memory(peer));
      for (std::size_t from : sources) {
        if (topology_.find_route(from, sm)) routes.insert({from, sm});
      }
      if (topology_.find_route(sm, topology_.host())) routes.insert({sm, topology_.host()});  // zero-copy stores
    }
  }

  // Second pass: the replay, reading the source in API order as the host threads need their next steps.
  void replay() {
    ApiOrderReader reader(source_, index_.order());
    TraceFeed::Setup setup{threads_,
                           !threads_.empty() && index_.has_work_without_api_call(),
                           recording_start_ns_,
                           stream_kinds_,
                           routes_,
                           {platform_.node.host().api_call_overhead_us() * 1e-6, options_.host_scale}};
    TraceFeed feed(
        reader, index_, std::move(setup), [this](Event& event) { return prepare(event); }, *this);
    clocks_.assign(feed.thread_ids().size(), {});
    run_replay(topology_, feed, engines_.count());
    feed.rethrow_failure();
    result_.host = feed.host_summary();
    result_.span_s = span_.seconds();
    result_.simulated_kernel_s = static_cast<double>(simulated_kernel_ns_) * 1e-9;
  }

  // An operation's work as it is read in the replay: a kernel lacking counters first borrows those of an identical
  // launch, and is counted; the rest of its event is not kept.
  PreparedOp prepare(Event& event) {
    if (event.has_kernel()) {
      ++result_.kernels;
      if (!has_core_counters(event.kernel()) && lender_.lend(*event.mutable_kernel())) ++result_.counters_borrowed;
    }
    Predicted predicted = op_work(event);
    PreparedOp prepared{std::move(predicted.work), {predicted.model_bound, std::nullopt}};
    if (event.has_kernel()) {
      if (predicted.estimated) note_estimate(event.kernel());
      prepared.notes.kernel_device = event.kernel().device_id();
    }
    return prepared;
  }

  void note_estimate(const KernelLaunch& launch) {
    ++result_.kernels_without_counters;
    std::vector<std::string>& names = result_.estimated_kernel_names;
    if (names.size() < kEstimatedNamesKept && std::find(names.begin(), names.end(), launch.name()) == names.end())
      names.push_back(launch.name());
  }

  // A timeline-only recording: every kernel time would be a guess, which users took for a prediction. Known once the
  // replay has predicted every kernel; nothing has been written yet.
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

  struct Predicted {
    OpWork work;
    std::uint16_t model_bound = 0;  // a kernel's bound as its model names it (BoundTable id)
    bool estimated = false;         // a kernel's time from its launch configuration alone
  };

  Predicted op_work(const Event& event) {
    if (event.has_memcpy()) {
      OpWork work = memcpy_work(event.memcpy(), topology_, platform_);
      work.copy_engine = engines_.engine_of(event.memcpy());
      return {std::move(work)};
    }
    if (event.has_memset()) return {memset_work(event.memset(), topology_, platform_)};
    if (!event.has_kernel()) return {};
    const KernelLaunch& launch = event.kernel();
    const platform::GpuSpec& gpu = platform_.gpus[launch.device_id()];
    const double serial = serial_share(launch.traffic_profile());
    models::KernelPrediction prediction;
    std::optional<double> local_sm_time_s;
    if (options_.reuse_recorded_kernel_times || !model_) {
      prediction = recorded_time(launch, gpu);
    } else {
      const auto slices = recorded_l2_slices_.find(launch.device_id());
      const std::uint32_t recorded_slices = slices == recorded_l2_slices_.end() ? 0 : slices->second;
      const models::KernelView view = models::KernelView::of(launch, recorded_slices);
      prediction = model_->predict(view, gpu);
      if (serial > 0) local_sm_time_s = model_->predict(view.without_remote_traffic(), gpu).sm_time_s;
    }
    const std::uint16_t bound = bounds_.add(model_bound(prediction, options_.reuse_recorded_kernel_times || !model_));
    return {
        kernel_op_work(prediction, topology_, launch.device_id(), peers_[launch.device_id()], serial, local_sm_time_s),
        bound, prediction.estimated_without_counters};
  }

  std::uint64_t at(double seconds) const {
    return recording_start_ns_ + static_cast<std::uint64_t>(std::llround(seconds * 1e9));
  }

  void call_time(std::size_t source_index, CallTimeKind kind, double start_s, double end_s) {
    if (kind == CallTimeKind::kNone) return;
    times_[source_index] = {at(start_s), at(end_s), true};
    if (kind == CallTimeKind::kApiCall) span_.extend(start_s, end_s);
  }

  // The model's bound where the SM work ended last, else the node resource of the transfer that ended after it.
  std::uint16_t kernel_bound(std::uint32_t device, const OpWork& work, std::int16_t last_transfer,
                             std::uint16_t model) {
    if (last_transfer < 0 || static_cast<std::size_t>(last_transfer) >= work.transfers.size()) return model;
    return bounds_.add(transfer_bound(work.transfers[static_cast<std::size_t>(last_transfer)], topology_, device));
  }

  // Third pass: every replayed event as read, with the counters it was predicted with and its new times.
  void emit(const SimulationOutput& output) {
    std::size_t index = 0;
    source_.for_each([&](Event& event) {
      const std::size_t at = index++;
      if (options_.progress && at % kProgressEvery == 0) options_.progress("writing", "events", at, times_.size());
      if (!replayed(event)) return;
      if (at >= times_.size()) throw std::runtime_error(source_.path() + ": changed while being simulated");
      if (event.has_kernel()) lender_.lend(*event.mutable_kernel());
      if (times_[at].set) set_times(event, times_[at].start_ns, times_[at].end_ns);
      if (const SimulatedBound* bound = bounds_.find(times_[at].bound); bound && event.has_kernel())
        *event.mutable_kernel()->mutable_simulated_bound() = *bound;
      output.event(event);
    });
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
  BoundTable bounds_;
  // From the first pass.
  std::size_t source_events_ = 0;  // every event of the source, markers included
  std::size_t operations_ = 0;
  ApiOrderIndex index_;
  std::vector<ThreadKey> threads_;
  StreamKinds stream_kinds_;
  std::vector<std::pair<std::size_t, std::size_t>> routes_;
  std::set<std::uint32_t> kernel_gpus_;   // GPUs with predicted kernels (add_kernel_routes)
  std::uint64_t recording_start_ns_ = 0;  // simulated time 0
  // From the replay.
  std::vector<NewTimes> times_;  // per source event
  std::vector<ThreadClock> clocks_;
  Span span_;
  std::uint64_t simulated_kernel_ns_ = 0;
  std::size_t ops_ended_ = 0;
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
