#include "petri/engine.h"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <utility>

#include "petri/rng.h"

namespace warpsim::models::petri {
namespace {

constexpr uint32_t kNotEnabled = std::numeric_limits<uint32_t>::max();

class Engine {
 public:
  Engine(const Net& net, std::vector<Tokens> marking, uint64_t seed)
      : net_(net),
        marking_(std::move(marking)),
        rng_(seed),
        position_(net.transition_count(), kNotEnabled),
        examined_(net.transition_count(), 0),
        touched_flag_(net.place_count(), 0),
        firings_(net.transition_count(), 0) {
    probe_.reserve(net.transition_count());
    for (TransitionId t = 0; t < net.transition_count(); ++t) {
      probe_.push_back(net.inputs(t).empty() ? Arc{0, 0} : net.inputs(t).back());  // weight 0: nothing to probe
    }
    for (TransitionId t = 0; t < net.transition_count(); ++t) {
      if (candidate(t)) add(t);
    }
  }

  // One maximal step; false (and nothing changes) in the dead marking.
  bool step() {
    order_.assign(candidates_.begin(), candidates_.end());
    shuffle(order_);
    fired_.clear();
    for (const TransitionId t : order_) {
      if (inputs_available(t)) {
        consume(t);
        fired_.push_back(t);
      }
    }
    // Nothing fired: no candidate was enabled (the first enabled one in the order always fires), the marking is dead.
    if (fired_.empty()) return false;
    for (const TransitionId t : fired_) produce(t);
    total_firings_ += fired_.size();
    ++steps_;
    refresh();
    return true;
  }

  RunResult finish(bool dead) && {
    return RunResult{steps_, dead, total_firings_, std::move(firings_), std::move(marking_)};
  }

  uint64_t steps() const { return steps_; }
  bool dead() const {
    return std::none_of(candidates_.begin(), candidates_.end(), [this](TransitionId t) { return inputs_available(t); });
  }

 private:
  // All inputs, unwatched ones first (read backwards): those on shared places are the ones likely to fail. The last
  // input is copied into probe_ so that the common failure, 50 warps wanting one free SM token, costs one lookup.
  bool inputs_available(TransitionId t) const {
    const Arc& probe = probe_[t];
    if (probe.weight > 0 && marking_[probe.place] < probe.weight) return false;
    const std::span<const Arc> inputs = net_.inputs(t);
    for (auto a = inputs.rbegin(); a != inputs.rend(); ++a) {
      if (marking_[a->place] < a->weight) return false;
    }
    return true;
  }

  // A candidate: watched inputs present, no inhibitor at its threshold. Every enabled transition is a candidate;
  // a candidate whose unwatched input is short is not enabled, and stays unfired when its turn comes.
  bool candidate(TransitionId t) const {
    for (const Arc& a : net_.watched_inputs(t)) {
      if (marking_[a.place] < a.weight) return false;
    }
    for (const Arc& a : net_.inhibitors(t)) {
      if (marking_[a.place] >= a.weight) return false;
    }
    return true;
  }

  void consume(TransitionId t) {
    for (const Arc& a : net_.inputs(t)) {
      touch(a.place);
      marking_[a.place] -= a.weight;
    }
  }

  void produce(TransitionId t) {
    for (const Arc& a : net_.outputs(t)) {
      touch(a.place);
      marking_[a.place] += a.weight;
    }
    ++firings_[t];
  }

  // Before the first change of p in a step: remember its marking at the step's start.
  void touch(PlaceId p) {
    if (touched_flag_[p]) return;
    touched_flag_[p] = 1;
    touched_.push_back({p, marking_[p]});
  }

  // Re-examine the transitions whose enabling may have changed: those with an arc on a changed place whose weight
  // the marking crossed (net.h, Dependent). A place many transitions wait on (the SM's p0) changes every step but
  // rarely crosses its arcs' weight 1, so this skips most of them. Each transition is examined at most once.
  void refresh() {
    const uint64_t stamp = steps_;
    for (const auto& [p, before] : touched_) {
      touched_flag_[p] = 0;
      const Tokens after = marking_[p];
      const Tokens low = std::min(before, after);
      const Tokens high = std::max(before, after);
      if (low == high) continue;
      const std::span<const Dependent> deps = net_.dependents(p);
      auto d = std::upper_bound(deps.begin(), deps.end(), low,
                                [](Tokens value, const Dependent& dep) { return value < dep.weight; });
      for (; d != deps.end() && d->weight <= high; ++d) examine(d->transition, stamp);
    }
    touched_.clear();
  }

  void examine(TransitionId t, uint64_t stamp) {
    if (examined_[t] == stamp) return;
    examined_[t] = stamp;
    const bool now = candidate(t);
    if (now && position_[t] == kNotEnabled) add(t);
    if (!now && position_[t] != kNotEnabled) remove(t);
  }

  void add(TransitionId t) {
    position_[t] = static_cast<uint32_t>(candidates_.size());
    candidates_.push_back(t);
  }

  void remove(TransitionId t) {
    const uint32_t at = position_[t];
    const TransitionId last = candidates_.back();
    candidates_[at] = last;
    position_[last] = at;
    candidates_.pop_back();
    position_[t] = kNotEnabled;
  }

  // Fisher-Yates: every order of the enabled transitions is equally likely.
  void shuffle(std::vector<TransitionId>& v) {
    for (size_t i = v.size(); i > 1; --i) {
      const uint32_t j = rng_.below(static_cast<uint32_t>(i));
      std::swap(v[i - 1], v[j]);
    }
  }

  const Net& net_;
  std::vector<Tokens> marking_;
  std::vector<Arc> probe_;  // each transition's last input arc (see inputs_available)
  SplitMix64 rng_;
  std::vector<TransitionId> candidates_;  // a superset of the enabled transitions, in no particular order
  std::vector<uint32_t> position_;        // index in candidates_, or kNotEnabled
  std::vector<uint64_t> examined_;        // step stamp of each transition's last re-examination
  std::vector<uint8_t> touched_flag_;
  std::vector<std::pair<PlaceId, Tokens>> touched_;  // places changed this step, with their marking at its start
  std::vector<TransitionId> order_;
  std::vector<TransitionId> fired_;
  std::vector<uint64_t> firings_;
  uint64_t steps_ = 0;
  uint64_t total_firings_ = 0;
};

}  // namespace

RunResult run(const Net& net, const RunOptions& options) { return run(net, net.initial_marking(), options); }

RunResult run(const Net& net, std::vector<Tokens> marking, const RunOptions& options) {
  if (marking.size() != net.place_count()) throw std::invalid_argument("marking size differs from the net's places");
  Engine engine(net, std::move(marking), options.seed);
  while (engine.steps() < options.max_steps) {
    if (!engine.step()) break;
  }
  const bool dead = engine.dead();
  return std::move(engine).finish(dead);
}

}  // namespace warpsim::models::petri
