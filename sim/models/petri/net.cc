#include "petri/net.h"

#include <algorithm>
#include <stdexcept>

namespace warpsim::models::petri {
namespace {

template <typename Pending>
std::vector<uint32_t> offsets(const std::vector<Pending>& arcs, size_t transitions) {
  std::vector<uint32_t> begin(transitions + 1, 0);
  for (const Pending& a : arcs) ++begin[a.transition + 1];
  for (size_t t = 0; t < transitions; ++t) begin[t + 1] += begin[t];
  return begin;
}

size_t index_of(const std::vector<std::string>& names, const std::string& name, const char* what) {
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) throw std::out_of_range(std::string("no ") + what + " '" + name + "' in the net");
  return static_cast<size_t>(found - names.begin());
}

}  // namespace

PlaceId Net::place(const std::string& name) const {
  return static_cast<PlaceId>(index_of(place_names_, name, "place"));
}

TransitionId Net::transition(const std::string& name) const {
  return static_cast<TransitionId>(index_of(transition_names_, name, "transition"));
}

PlaceId NetBuilder::add_place(std::string name, Tokens initial) {
  if (initial < 0) throw std::invalid_argument("place '" + name + "': negative initial marking");
  place_names_.push_back(std::move(name));
  initial_.push_back(initial);
  return static_cast<PlaceId>(place_names_.size() - 1);
}

TransitionId NetBuilder::add_transition(std::string name) {
  transition_names_.push_back(std::move(name));
  return static_cast<TransitionId>(transition_names_.size() - 1);
}

void NetBuilder::set_initial(PlaceId p, Tokens tokens) {
  if (p >= initial_.size() || tokens < 0) throw std::invalid_argument("set_initial: bad place or marking");
  initial_[p] = tokens;
}

void NetBuilder::check(TransitionId t, PlaceId p, Tokens weight) const {
  if (t >= transition_names_.size()) throw std::invalid_argument("arc to unknown transition");
  if (p >= place_names_.size()) throw std::invalid_argument("arc to unknown place");
  if (weight < 1) {
    throw std::invalid_argument("arc " + place_names_[p] + " - " + transition_names_[t] + ": weight must be >= 1");
  }
}

void NetBuilder::input(TransitionId t, PlaceId p, Tokens weight) {
  check(t, p, weight);
  inputs_.push_back({t, {p, weight}});
}

void NetBuilder::output(TransitionId t, PlaceId p, Tokens weight) {
  check(t, p, weight);
  outputs_.push_back({t, {p, weight}});
}

void NetBuilder::inhibitor(TransitionId t, PlaceId p, Tokens threshold) {
  check(t, p, threshold);
  inhibitors_.push_back({t, {p, threshold}});
}

void NetBuilder::read(TransitionId t, PlaceId p, Tokens weight) {
  input(t, p, weight);
  output(t, p, weight);
}

Net NetBuilder::build() const {
  Net net;
  net.place_names_ = place_names_;
  net.transition_names_ = transition_names_;
  net.initial_ = initial_;
  const size_t transitions = transition_names_.size();
  auto fill = [transitions](const std::vector<Pending>& pending, Net::ArcTable& table) {
    table.begin = offsets(pending, transitions);
    table.arcs.resize(pending.size());
    std::vector<uint32_t> next(table.begin.begin(), table.begin.end() - 1);
    for (const Pending& a : pending) table.arcs[next[a.transition]++] = a.arc;
  };
  fill(inputs_, net.inputs_);
  fill(outputs_, net.outputs_);
  fill(inhibitors_, net.inhibitors_);

  // Consumers per place; inputs on places with few consumers first, the watched prefix.
  std::vector<size_t> consumers(place_names_.size(), 0);
  for (const Pending& a : inputs_) ++consumers[a.arc.place];
  const auto watched = [&consumers](PlaceId p) { return consumers[p] <= Net::kMaxWatchers; };
  net.watched_inputs_.assign(transitions, 0);
  for (size_t t = 0; t < transitions; ++t) {
    auto* first = net.inputs_.arcs.data() + net.inputs_.begin[t];
    auto* last = net.inputs_.arcs.data() + net.inputs_.begin[t + 1];
    std::stable_sort(first, last,
                     [&consumers](const Arc& a, const Arc& b) { return consumers[a.place] < consumers[b.place]; });
    net.watched_inputs_[t] =
        static_cast<uint32_t>(std::count_if(first, last, [&](const Arc& a) { return watched(a.place); }));
  }

  // Dependents: each place lists the arcs that gate candidates on it (watched inputs, inhibitors), by weight.
  std::vector<std::vector<Dependent>> readers(place_names_.size());
  for (const Pending& a : inputs_) {
    if (watched(a.arc.place)) readers[a.arc.place].push_back({a.transition, a.arc.weight});
  }
  for (const Pending& a : inhibitors_) readers[a.arc.place].push_back({a.transition, a.arc.weight});
  net.dependents_begin_.assign(place_names_.size() + 1, 0);
  const auto key = [](const Dependent& d) { return std::pair(d.weight, d.transition); };
  for (size_t p = 0; p < readers.size(); ++p) {
    auto& r = readers[p];
    std::sort(r.begin(), r.end(), [&key](const Dependent& a, const Dependent& b) { return key(a) < key(b); });
    r.erase(
        std::unique(r.begin(), r.end(), [&key](const Dependent& a, const Dependent& b) { return key(a) == key(b); }),
        r.end());
    net.dependents_begin_[p + 1] = net.dependents_begin_[p] + static_cast<uint32_t>(r.size());
    net.dependents_.insert(net.dependents_.end(), r.begin(), r.end());
  }
  return net;
}

}  // namespace warpsim::models::petri
