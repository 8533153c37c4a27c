#pragma once
// Runs a replay in SimGrid: one process per host thread, one per (device, stream) (maestro_process.h). Each host
// thread computes, issues operations and blocks as its steps say; each stream's process runs its operations in order
// once issued and once the operations they wait for have ended. Copies that need a copy engine hold it while they run.
// The steps and operations come from a ReplayFeed as the processes need them, so a feed that reads its trace in
// windows keeps only what has not run yet.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "op_work.h"
#include "replay_program.h"
#include "topology.h"

namespace warpsim::replay {

/// An operation as a stream's process runs it.
struct FedOp {
  std::size_t op = kNoOp;
  std::vector<std::size_t> waits_for;  // operations of other streams that must end first
  OpWork work;
  std::size_t event = kNoOp;  // the event it came from, as the feed numbers them
  std::uint64_t feed_note = 0;  // the feed's own, handed back with the operation when it ends
};

/// What the replay runs, handed out as the processes ask: a whole program in memory (ProgramFeed) or a trace read in
/// windows. Times are simulated seconds.
class ReplayFeed {
 public:
  virtual ~ReplayFeed() = default;
  /// The host threads' ids, known before the replay starts (a process each, created in this order).
  virtual std::vector<std::uint64_t> thread_ids() const = 0;
  /// The streams known so far (device and stream ids; operations not needed). A feed that reads as it goes learns
  /// of more when asked for steps; the engine adds a process for each, in this order.
  virtual std::size_t stream_count() const = 0;
  virtual const ReplayStream& stream(std::size_t index) const = 0;
  /// The (from, to) vertex pairs the operations' transfers may use.
  virtual std::vector<std::pair<std::size_t, std::size_t>> routes() const = 0;
  /// Host thread `thread`'s next step; false when it has none left. HostStep::stream is set for kIssue.
  virtual bool next_step(std::size_t thread, HostStep& step) = 0;
  /// Stream `stream`'s next operation: the host issued it, so the feed has it. Asked once more when every host
  /// thread has ended: nullopt then, nothing follows.
  virtual std::optional<FedOp> next_op(std::size_t stream) = 0;
  virtual void step_ended(std::size_t thread, const HostStep& step, double end_s) = 0;
  /// `last_transfer`: which of its transfers ended last, after its SM work (-1: the SM work, or nothing but setup).
  virtual void op_ended(const FedOp& op, double start_s, double end_s, std::int16_t last_transfer) = 0;
};

struct ReplayTimings {
  std::vector<double> op_start, op_end;           // simulated seconds, per operation (start: before its setup)
  // Per operation, which of its transfers (OpWork::transfers) ended last, after its SM work: what bounded it. -1: the
  // SM work ended last (or the operation had nothing but its setup).
  std::vector<std::int16_t> op_last_transfer;
  std::vector<std::vector<double>> host_step_end;  // per thread, when each of its steps finished
  double end = 0;                                  // when the last process finished
};

/// A whole program in memory: hands out its steps and operations, and keeps their times.
class ProgramFeed : public ReplayFeed {
 public:
  ProgramFeed(const ReplayProgram& program, const std::vector<OpWork>& work);
  std::vector<std::uint64_t> thread_ids() const override;
  std::size_t stream_count() const override { return program_.streams.size(); }
  const ReplayStream& stream(std::size_t index) const override { return program_.streams[index]; }
  std::vector<std::pair<std::size_t, std::size_t>> routes() const override { return transfer_routes(work_); }
  bool next_step(std::size_t thread, HostStep& step) override;
  std::optional<FedOp> next_op(std::size_t stream) override;
  void step_ended(std::size_t thread, const HostStep& step, double end_s) override;
  void op_ended(const FedOp& op, double start_s, double end_s, std::int16_t last_transfer) override;
  const ReplayTimings& timings() const { return timings_; }

 private:
  const ReplayProgram& program_;
  const std::vector<OpWork>& work_;
  std::vector<std::size_t> next_step_, next_op_;  // per thread, per stream
  ReplayTimings timings_;
};

/// Called with the number of operations ended so far, after each one ends (progress displays).
using OpsEnded = std::function<void(std::size_t)>;

/// Creates the program's SimGrid engine (one per OS process: shared notes/simgrid.md), builds the node and runs what
/// `feed` hands out. `copy_engines`: how many copy engines (OpWork::copy_engine indexes them), each running one copy
/// at a time. Returns when the last replay process finished (simulated seconds). Throws the feed's or `ops_ended`'s
/// error, or a runtime_error when operations were left waiting for each other.
double run_replay(const Topology& topology, ReplayFeed& feed, std::size_t copy_engines = 0,
                  const OpsEnded& ops_ended = {});
/// The same for a whole program in memory.
ReplayTimings run_replay(const Topology& topology, const ReplayProgram& program, const std::vector<OpWork>& work,
                         std::size_t copy_engines = 0, const OpsEnded& ops_ended = {});

}  // namespace warpsim::replay
