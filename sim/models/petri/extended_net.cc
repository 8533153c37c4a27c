#include "petri/extended_net.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "petri/sm_part.h"

namespace warpsim::models::petri {
namespace {

// How exec.k claims pipe P: nothing, a read arc on `place`, or the token of `place` for `hold` steps.
struct PipeGate {
  bool limited = false;
  PlaceId place = 0;
  Tokens hold = 1;  // 1: read arc (floor(rate) per step); >= 2: one instruction every `hold` steps
  PlaceId busy = 0;
  PlaceId count = 0;
};

struct SmResources {
  SmPart sm;
  std::vector<PipeGate> pipes;
  std::optional<PlaceId> dram;
};

// A slow pipe (rate < 1): exec takes its token; busy/count give it back `hold` steps after it was taken.
void add_slow_pipe(NetBuilder& b, PipeGate& gate, const std::string& name) {
  gate.busy = b.add_place(name + ".busy");
  gate.count = b.add_place(name + ".count");
  const TransitionId tick = b.add_transition(name + ".tick");
  b.input(tick, gate.busy);
  b.input(tick, gate.count);
  b.output(tick, gate.busy);
  const TransitionId release = b.add_transition(name + ".release");
  b.input(release, gate.busy);
  b.output(release, gate.place);
  b.inhibitor(release, gate.count);
}

PipeGate add_pipe(NetBuilder& b, const PipeSpec& pipe, Tokens schedulers) {
  PipeGate gate;
  if (pipe.rate <= 0 || pipe.rate >= static_cast<double>(schedulers)) return gate;  // never the bound
  gate.limited = true;
  const std::string name = "pipe." + pipe.name;
  if (pipe.rate >= 1) {
    gate.place = b.add_place(name, static_cast<Tokens>(std::floor(pipe.rate)));
    return gate;
  }
  gate.hold = std::max<Tokens>(1, std::llround(1 / pipe.rate));
  gate.place = b.add_place(name, 1);
  if (gate.hold >= 2) add_slow_pipe(b, gate, name);
  return gate;
}

SmResources add_resources(NetBuilder& b, const ExtendedParams& params, size_t warps) {
  SmResources r;
  r.sm = add_sm_part(b, params.schedulers, static_cast<Tokens>(warps));
  for (const PipeSpec& pipe : params.pipes) r.pipes.push_back(add_pipe(b, pipe, params.schedulers));
  if (params.dram_slots > 0) r.dram = b.add_place("dram", params.dram_slots);
  return r;
}

void claim_pipe(NetBuilder& b, TransitionId exec, const PipeGate& gate) {
  if (!gate.limited) return;
  if (gate.hold <= 1) {
    b.read(exec, gate.place);
    return;
  }
  b.input(exec, gate.place);
  b.output(exec, gate.busy);
  if (gate.hold > 2) b.output(exec, gate.count, gate.hold - 2);
}

struct WarpPlaces {
  PlaceId active, ready, fetch, selected, issued, wait, lat;
  std::optional<PlaceId> mem;
};

bool has_dram_kinds(const PerKind<Tokens>& counts) {
  for (const InstructionKind k : kAllInstructionKinds) {
    if (goes_to_dram(k) && counts[kind_index(k)] > 0) return true;
  }
  return false;
}

WarpPlaces add_warp_places(NetBuilder& b, const std::string& prefix, const PerKind<Tokens>& counts,
                           const SmResources& r) {
  WarpPlaces p{};
  p.active = b.add_place(prefix + "p1", 1);
  p.ready = b.add_place(prefix + "p2", 1);
  p.fetch = b.add_place(prefix + "p3", 1);
  p.selected = b.add_place(prefix + "p4");
  p.issued = b.add_place(prefix + "p11");
  p.wait = b.add_place(prefix + "wait");
  p.lat = b.add_place(prefix + "lat");
  if (r.dram && has_dram_kinds(counts)) p.mem = b.add_place(prefix + "mem");
  return p;
}

// Selection and execution of kind k: sel.k, exec.k. Returns count.k.
PlaceId add_kind(NetBuilder& b, const std::string& prefix, InstructionKind k, Tokens count, const WarpPlaces& p,
                 const SmResources& r, const KindSpec& spec) {
  const std::string name(kind_name(k));
  const PlaceId left = b.add_place(prefix + "count." + name, count);
  const PlaceId instr = b.add_place(prefix + "instr." + name);
  const TransitionId sel = b.add_transition(prefix + "sel." + name);
  b.input(sel, p.fetch);
  b.input(sel, left);
  b.output(sel, p.selected);
  b.output(sel, instr);
  const TransitionId exec = b.add_transition(prefix + "exec." + name);
  b.input(exec, p.issued);
  b.input(exec, instr);
  b.output(exec, p.wait);
  b.output(exec, p.fetch);  // the next instruction may be selected while this one is in flight
  const Tokens ticks = spec.latency - kFixedStepsPerInstruction;
  if (ticks > 0) b.output(exec, p.lat, ticks);
  if (spec.pipe >= 0) claim_pipe(b, exec, r.pipes.at(static_cast<size_t>(spec.pipe)));
  if (goes_to_dram(k) && p.mem) {
    b.input(exec, *r.dram);
    b.output(exec, *p.mem);
  }
  return left;
}

// Issue, latency count-down, completion and termination.
void add_warp_control(NetBuilder& b, const std::string& prefix, const WarpPlaces& p, const SmResources& r,
                      const std::vector<PlaceId>& counts) {
  const TransitionId t1 = b.add_transition(prefix + "t1");
  b.input(t1, p.ready);
  b.input(t1, p.selected);
  b.read(t1, r.sm.sm);
  b.output(t1, p.issued);
  const TransitionId tick = b.add_transition(prefix + "tick");
  b.input(tick, p.wait);
  b.input(tick, p.lat);
  b.output(tick, p.wait);
  const TransitionId done = b.add_transition(prefix + "done");
  b.input(done, p.wait);
  b.output(done, p.ready);
  b.inhibitor(done, p.lat);
  if (p.mem) {
    b.inhibitor(done, *p.mem);
    const TransitionId done_mem = b.add_transition(prefix + "done.mem");
    b.input(done_mem, p.wait);
    b.input(done_mem, *p.mem);
    b.output(done_mem, p.ready);
    b.output(done_mem, *r.dram);
    b.inhibitor(done_mem, p.lat);
  }
  const TransitionId t16 = b.add_transition(prefix + "t16");
  for (const PlaceId q : {p.active, p.ready, p.fetch, r.sm.active}) b.input(t16, q);
  for (const PlaceId q : counts) b.inhibitor(t16, q);
}

PlaceId add_warp(NetBuilder& b, uint32_t index_in_sm, const PerKind<Tokens>& counts, const SmResources& r,
                 const ExtendedParams& params) {
  const std::string prefix = "w" + std::to_string(index_in_sm) + ".";
  const WarpPlaces p = add_warp_places(b, prefix, counts, r);
  std::vector<PlaceId> count_places;
  for (const InstructionKind k : kAllInstructionKinds) {
    if (counts[kind_index(k)] <= 0) continue;
    count_places.push_back(add_kind(b, prefix, k, counts[kind_index(k)], p, r, params.kinds[kind_index(k)]));
  }
  add_warp_control(b, prefix, p, r, count_places);
  return p.ready;
}

}  // namespace

Net extended_sm_net(std::span<const PerKind<Tokens>> warps, const ExtendedParams& params) {
  for (const KindSpec& spec : params.kinds) {
    if (spec.latency < 1) throw std::invalid_argument("instruction latency must be >= 1 step");
  }
  NetBuilder builder;
  const SmResources resources = add_resources(builder, params, warps.size());
  std::vector<PlaceId> ready;
  for (uint32_t w = 0; w < warps.size(); ++w) ready.push_back(add_warp(builder, w, warps[w], resources, params));
  inhibit_waiting(builder, resources.sm, ready);
  return builder.build();
}

}  // namespace warpsim::models::petri
