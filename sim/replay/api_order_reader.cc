#include "api_order_reader.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "replay_program.h"

namespace warpsim::replay {

bool is_operation(const Event& event) { return event.has_kernel() || event.has_memcpy() || event.has_memset(); }

namespace {

CallTimeKind call_time_kind(const Event& event) {
  if (event.has_api_call()) return CallTimeKind::kApiCall;
  if (event.has_sync() && event.sync().type() != Synchronization::EVENT_RECORD) return CallTimeKind::kSynchronization;
  return CallTimeKind::kNone;
}

}  // namespace

bool replayed(const Event& event) { return !event.has_marker() && event.kind_case() != Event::KIND_NOT_SET; }

void ApiOrderIndex::add(const Event& event, std::size_t source_index) {
  if (source_index > std::numeric_limits<std::uint32_t>::max())
    throw std::runtime_error("more than 4,294,967,295 events in one trace");
  keys_.push_back(
      {correlation_of(event), start_of(event), static_cast<std::uint32_t>(source_index), !event.has_api_call(),
       is_operation(event) || call_time_kind(event) == CallTimeKind::kSynchronization, call_time_kind(event)});
}

void ApiOrderIndex::finish() {
  std::sort(keys_.begin(), keys_.end(), [](const Key& a, const Key& b) {
    return std::tie(a.correlation, a.not_api_call, a.start, a.source) <
           std::tie(b.correlation, b.not_api_call, b.start, b.source);
  });
  order_.reserve(keys_.size());
  call_time_kinds_.reserve(keys_.size());
  bool api_call_in_group = false;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    const Key& key = keys_[i];
    if (i == 0 || key.correlation != keys_[i - 1].correlation) api_call_in_group = !key.not_api_call;
    if (key.work && !api_call_in_group) work_without_api_call_ = true;
    order_.push_back(key.source);
    call_time_kinds_.push_back(key.call_time);
  }
  keys_ = {};
}

std::vector<std::size_t> api_order(const std::vector<Event>& events) {
  ApiOrderIndex index;
  for (std::size_t i = 0; i < events.size(); ++i) index.add(events[i], i);
  index.finish();
  return {index.order().begin(), index.order().end()};
}

std::vector<std::size_t> sort_by_api_order(std::vector<Event>& events) {
  std::vector<std::size_t> order = api_order(events);
  std::vector<Event> sorted(events.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i].Swap(&events[order[i]]);
  events.swap(sorted);
  return order;
}

ApiOrderReader::ApiOrderReader(EventSource& source, const std::vector<std::uint32_t>& order)
    : source_(source), order_(order), cursor_(source.open()) {}

bool ApiOrderReader::next(Event& event, std::size_t& source_index) {
  if (next_rank_ == order_.size()) return false;
  source_index = order_[next_rank_++];
  if (source_index < read_) {
    const auto it = waiting_.find(source_index);
    if (it == waiting_.end()) throw std::runtime_error(source_.path() + ": changed while being simulated");
    event = std::move(it->second);
    waiting_.erase(it);
    return true;
  }
  Event read;
  while (cursor_->next(read)) {
    const std::size_t at = read_++;
    if (at == source_index) {
      event = std::move(read);
      return true;
    }
    if (replayed(read)) waiting_.emplace(at, std::move(read));
  }
  throw std::runtime_error(source_.path() + ": changed while being simulated");
}

}  // namespace warpsim::replay
