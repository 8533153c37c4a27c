#pragma once
// A bounded place/transition net with weighted arcs and inhibitor arcs: the structure the engine (engine.h) runs.
//
// Built once with NetBuilder, then immutable. Arcs are stored CSR-style (one flat array per kind, indexed by
// transition), and each place knows the transitions whose enabling it can change (as input or inhibitor), so the
// engine re-examines only those after a step.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace warpsim::models::petri {

using PlaceId = uint32_t;
using TransitionId = uint32_t;
using Tokens = int64_t;

/// A transition whose enabling depends on a place through an arc of `weight`: an input arc is satisfied, an
/// inhibitor arc blocks, exactly when the place holds `weight` tokens or more. So a marking change from a to b can
/// change the transition's enabling only if `weight` lies in (min(a, b), max(a, b)].
struct Dependent {
  TransitionId transition = 0;
  Tokens weight = 1;
};

/// An arc between a transition and `place`. Input and output arcs move `weight` tokens; an inhibitor arc disables
/// its transition while the place holds `weight` tokens or more (weight 1: the classic zero test).
struct Arc {
  PlaceId place = 0;
  Tokens weight = 1;
};

class Net {
 public:
  /// Places consumed by more transitions than this are not watched (watched_inputs).
  static constexpr size_t kMaxWatchers = 16;

  size_t place_count() const { return place_names_.size(); }
  size_t transition_count() const { return transition_names_.size(); }
  const std::string& place_name(PlaceId p) const { return place_names_[p]; }
  const std::string& transition_name(TransitionId t) const { return transition_names_[t]; }
  const std::vector<Tokens>& initial_marking() const { return initial_; }

  /// Input arcs, those on watched places first (see watched_inputs).
  std::span<const Arc> inputs(TransitionId t) const { return range(inputs_, t); }
  /// The leading input arcs of `t` whose places at most kMaxWatchers transitions consume. The engine keeps its set of
  /// candidate transitions up to date with these and the inhibitor arcs only: a place that many transitions wait on
  /// (the SM's p0 with 64 warps) would otherwise send them all in and out of the set every step. Arcs on such places
  /// are checked when the transition's turn comes in a step, which gives the same steps (engine.h).
  std::span<const Arc> watched_inputs(TransitionId t) const { return inputs(t).first(watched_inputs_[t]); }
  std::span<const Arc> outputs(TransitionId t) const { return range(outputs_, t); }
  std::span<const Arc> inhibitors(TransitionId t) const { return range(inhibitors_, t); }
  /// The watched input arcs and the inhibitor arcs on `p`, sorted by weight (then transition): the candidates a
  /// change of p's marking can add or remove.
  std::span<const Dependent> dependents(PlaceId p) const {
    return {dependents_.data() + dependents_begin_[p], dependents_.data() + dependents_begin_[p + 1]};
  }

  /// The place or transition called `name`; throws std::out_of_range when there is none (tests and tools, not hot).
  PlaceId place(const std::string& name) const;
  TransitionId transition(const std::string& name) const;

 private:
  friend class NetBuilder;
  struct ArcTable {
    std::vector<uint32_t> begin;  // transition_count + 1 offsets into arcs
    std::vector<Arc> arcs;
  };
  static std::span<const Arc> range(const ArcTable& table, TransitionId t) {
    return {table.arcs.data() + table.begin[t], table.arcs.data() + table.begin[t + 1]};
  }

  std::vector<std::string> place_names_;
  std::vector<std::string> transition_names_;
  std::vector<Tokens> initial_;
  ArcTable inputs_;
  ArcTable outputs_;
  ArcTable inhibitors_;
  std::vector<uint32_t> watched_inputs_;  // per transition
  std::vector<uint32_t> dependents_begin_;
  std::vector<Dependent> dependents_;
};

/// Collects places, transitions and arcs in any order; build() freezes them into a Net.
class NetBuilder {
 public:
  PlaceId add_place(std::string name, Tokens initial = 0);
  TransitionId add_transition(std::string name);
  void set_initial(PlaceId p, Tokens tokens);
  Tokens initial(PlaceId p) const { return initial_[p]; }

  /// Weights and thresholds must be >= 1; arcs to unknown ids throw std::invalid_argument.
  void input(TransitionId t, PlaceId p, Tokens weight = 1);
  void output(TransitionId t, PlaceId p, Tokens weight = 1);
  void inhibitor(TransitionId t, PlaceId p, Tokens threshold = 1);
  /// A read (test) arc: input and output of the same weight, so the transition needs the tokens and puts them back.
  void read(TransitionId t, PlaceId p, Tokens weight = 1);

  Net build() const;

 private:
  struct Pending {
    TransitionId transition;
    Arc arc;
  };
  void check(TransitionId t, PlaceId p, Tokens weight) const;

  std::vector<std::string> place_names_;
  std::vector<std::string> transition_names_;
  std::vector<Tokens> initial_;
  std::vector<Pending> inputs_;
  std::vector<Pending> outputs_;
  std::vector<Pending> inhibitors_;
};

}  // namespace warpsim::models::petri
