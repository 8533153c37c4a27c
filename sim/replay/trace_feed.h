#pragma once
// The replay's feed from a trace read in API order as the replay needs it: each event goes through the program and
// host-step builders when a host thread has no step left to take; operations wait in their stream's queue until run,
// steps in their thread's until taken. Memory holds what has been read and not yet run, not the trace.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "api_order_reader.h"
#include "host_program.h"
#include "prepared_events.h"
#include "replay_engine.h"
#include "replay_program.h"

namespace warpsim::replay {

/// Told of the replay's times as they come (simulated seconds).
class ReplayListener {
 public:
  virtual ~ReplayListener() = default;
  /// An operation ended; `source_index`: its event's position in the source.
  virtual void op_ended(std::size_t source_index, const FedOp& op, const OpNotes& notes, double start_s, double end_s,
                        std::int16_t last_transfer) = 0;
  /// A host thread's step ended; `source_index` and `kind`: those of the step's event (none: kNoOp).
  virtual void step_ended(std::size_t thread, const HostStep& step, std::size_t source_index, CallTimeKind kind,
                          double end_s) = 0;
};

class TraceFeed : public ReplayFeed {
 public:
  struct Setup {
    std::vector<ThreadKey> threads;  // those that made API calls, in order
    bool unattributed = false;       // a thread for work no recorded call issued follows them
    std::uint64_t recording_start_ns = 0;
    StreamKinds stream_kinds;
    std::vector<std::pair<std::size_t, std::size_t>> routes;
    HostOptions host;
  };
  /// `prepare` makes an operation's work from its event, on a thread of its own (PreparedEvents), in API order, while
  /// the replay runs; the event is not kept after.
  TraceFeed(ApiOrderReader& reader, const ApiOrderIndex& index, Setup setup, Prepare prepare, ReplayListener& listener);
  std::vector<std::uint64_t> thread_ids() const override;
  std::size_t stream_count() const override { return program_.streams().size(); }
  const ReplayStream& stream(std::size_t index) const override { return program_.streams()[index]; }
  std::vector<std::pair<std::size_t, std::size_t>> routes() const override { return setup_.routes; }
  bool next_step(std::size_t thread, HostStep& step) override;
  std::optional<FedOp> next_op(std::size_t stream) override;
  void step_ended(std::size_t thread, const HostStep& step, double end_s) override;
  void op_ended(const FedOp& op, double start_s, double end_s, std::int16_t last_transfer) override;

  /// After the replay: rethrows what stopped reading (every thread ended then, so the replay could wind down).
  void rethrow_failure() const;
  const HostSummary& host_summary() const { return host_.summary(); }

 private:
  bool read_one();

  const ApiOrderIndex& index_;
  Setup setup_;
  ReplayListener& listener_;
  ProgramBuilder program_;
  HostStepsBuilder host_;
  std::size_t next_rank_ = 0;
  bool finished_ = false;
  std::exception_ptr failure_;
  std::vector<std::deque<FedOp>> queued_;  // per stream, issued or not, not yet run
  PreparedEvents events_;                  // last: its thread starts reading once the rest exists
};

}  // namespace warpsim::replay
