#include "trace_feed.h"

namespace warpsim::replay {
namespace {

// An operation's notes ride with it through the replay (FedOp::feed_note) rather than waiting in a table: the bound
// in the low 16 bits, whether it has a kernel device in bit 16, the device in the high 32.
constexpr unsigned kHasDeviceBit = 16;
constexpr unsigned kDeviceShift = 32;

std::uint64_t note_of(const OpNotes& notes) {
  std::uint64_t note = notes.model_bound;
  if (notes.kernel_device)
    note |= (std::uint64_t{1} << kHasDeviceBit) | (std::uint64_t{*notes.kernel_device} << kDeviceShift);
  return note;
}

OpNotes notes_of(std::uint64_t note) {
  OpNotes notes;
  notes.model_bound = static_cast<std::uint16_t>(note & 0xffff);
  if (note & (std::uint64_t{1} << kHasDeviceBit))
    notes.kernel_device = static_cast<std::uint32_t>(note >> kDeviceShift);
  return notes;
}

}  // namespace

TraceFeed::TraceFeed(ApiOrderReader& reader, const ApiOrderIndex& index, Setup setup, Prepare prepare,
                     ReplayListener& listener)
    : index_(index),
      setup_(std::move(setup)),
      listener_(listener),
      program_(setup_.stream_kinds),
      host_(setup_.host, setup_.recording_start_ns, setup_.threads, setup_.unattributed),
      events_(prepare_each(reader, std::move(prepare))) {}

std::vector<std::uint64_t> TraceFeed::thread_ids() const {
  std::vector<std::uint64_t> ids;
  for (const ThreadKey& key : setup_.threads) ids.push_back(key.second);
  while (ids.size() < host_.thread_count()) ids.push_back(0);  // the unattributed thread, or the only one
  return ids;
}

// Reads until the thread has a step, or the trace has ended and every open call has been closed. A failure (the
// file changed since the first pass) ends every thread: the replay winds down and rethrow_failure() tells.
bool TraceFeed::next_step(std::size_t thread, HostStep& step) {
  std::deque<HostStep>& ready = host_.ready(thread);
  try {
    while (ready.empty() && !failure_) {
      if (read_one()) continue;
      if (finished_) return false;
      host_.finish();
      finished_ = true;
    }
  } catch (...) {
    failure_ = std::current_exception();
  }
  if (failure_) return false;
  step = ready.front();
  ready.pop_front();
  return true;
}

bool TraceFeed::read_one() {
  PreparedEvent* item = events_.next();
  if (!item) return false;
  const std::size_t rank = next_rank_++;
  std::optional<AddedOp> added;
  const EventActions actions = program_.add(item->event, rank, added);
  host_.add(item->event, rank, actions, added, program_);
  if (!added) return true;
  PreparedOp& prepared = item->prepared.value();  // every operation was prepared (is_operation)
  if (queued_.size() < program_.streams().size()) queued_.resize(program_.streams().size());
  queued_[added->op.stream].push_back({actions.issues, std::move(added->op.waits_for), std::move(prepared.work),
                                       item->source_index, note_of(prepared.notes)});
  return true;
}

std::optional<FedOp> TraceFeed::next_op(std::size_t stream) {
  if (stream >= queued_.size() || queued_[stream].empty()) return std::nullopt;
  FedOp op = std::move(queued_[stream].front());
  queued_[stream].pop_front();
  return op;
}

void TraceFeed::step_ended(std::size_t thread, const HostStep& step, double end_s) {
  const bool has_event = step.event != kNoOp;
  listener_.step_ended(thread, step, has_event ? index_.order()[step.event] : kNoOp,
                       has_event ? index_.call_time_kinds()[step.event] : CallTimeKind::kNone, end_s);
}

void TraceFeed::op_ended(const FedOp& op, double start_s, double end_s, std::int16_t last_transfer) {
  listener_.op_ended(op.event, op, notes_of(op.feed_note), start_s, end_s, last_transfer);
}

void TraceFeed::rethrow_failure() const {
  if (failure_) std::rethrow_exception(failure_);
}

}  // namespace warpsim::replay
