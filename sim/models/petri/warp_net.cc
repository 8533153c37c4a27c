#include "petri/warp_net.h"

#include <array>
#include <stdexcept>
#include <string>

namespace warpsim::models::petri {
namespace {

// Places p1..p18 of one warp; index 0 unused so that p[5] is the paper's p5.
using WarpPlaces = std::array<PlaceId, 19>;

WarpPlaces add_places(NetBuilder& builder, const std::string& prefix, const PaperWarp& warp,
                      const PaperParams& params) {
  WarpPlaces p{};
  for (uint32_t i = 1; i <= 18; ++i) p[i] = builder.add_place(prefix + "p" + std::to_string(i));
  builder.set_initial(p[1], 1);  // active warp
  builder.set_initial(p[2], 1);  // previous instruction finished
  builder.set_initial(p[3], 1);  // check the next instruction
  builder.set_initial(p[5], warp.arithmetic);
  builder.set_initial(p[7], warp.shared);
  builder.set_initial(p[9], warp.global);
  builder.set_initial(p[13], params.global_latency);  // the global latency counter
  builder.set_initial(p[18], params.shared_latency);  // the shared latency counter
  return p;
}

// Frame I: select the next instruction (the random order of the step picks among t2, t3, t4) and t1: issue it.
void add_selection(NetBuilder& b, const std::string& prefix, const WarpPlaces& p, const SmPart& sm) {
  const std::array<std::array<uint32_t, 3>, 3> selections{{{2, 5, 6}, {3, 7, 8}, {4, 9, 10}}};
  for (const auto& [t, count, kind] : selections) {
    const TransitionId select = b.add_transition(prefix + "t" + std::to_string(t));
    b.input(select, p[3]);
    b.input(select, p[count]);
    b.output(select, p[4]);
    b.output(select, p[kind]);
  }
  const TransitionId t1 = b.add_transition(prefix + "t1");
  b.input(t1, p[2]);
  b.input(t1, p[4]);
  b.input(t1, sm.sm);
  b.output(t1, p[11]);
}

// The end of an instruction: the warp is ready (p2) and may select the next (p3).
void finish(NetBuilder& b, TransitionId t, const WarpPlaces& p) {
  b.output(t, p[2]);
  b.output(t, p[3]);
}

// Frame II: t7 executes, t15 finishes and returns the SM token.
void add_arithmetic(NetBuilder& b, const std::string& prefix, const WarpPlaces& p, const SmPart& sm) {
  const TransitionId t7 = b.add_transition(prefix + "t7");
  b.input(t7, p[11]);
  b.input(t7, p[6]);
  b.output(t7, p[17]);
  const TransitionId t15 = b.add_transition(prefix + "t15");
  b.input(t15, p[17]);
  finish(b, t15, p);
  b.output(t15, sm.sm);
}

// A latency counter: `wait` moves one token per step from `counter` (holding `latency`) into `held`, `access` fires
// once `held` has latency + 1 tokens and puts the counter back.
void add_counter(NetBuilder& b, TransitionId wait, TransitionId access, PlaceId held, PlaceId counter, Tokens latency) {
  b.input(wait, held);
  b.input(wait, counter);
  b.output(wait, held, 2);
  b.input(access, held, latency + 1);
  if (latency > 0) b.output(access, counter, latency);
}

// Frame III: t6 executes, l2 firings of t17 wait, t12 accesses, t14 finishes and returns the SM token.
void add_shared(NetBuilder& b, const std::string& prefix, const WarpPlaces& p, const SmPart& sm, Tokens l2) {
  const TransitionId t6 = b.add_transition(prefix + "t6");
  b.input(t6, p[11]);
  b.input(t6, p[8]);
  b.output(t6, p[15]);
  const TransitionId t17 = b.add_transition(prefix + "t17");
  const TransitionId t12 = b.add_transition(prefix + "t12");
  add_counter(b, t17, t12, p[15], p[18], l2);
  b.output(t12, p[16]);
  const TransitionId t14 = b.add_transition(prefix + "t14");
  b.input(t14, p[16]);
  finish(b, t14, p);
  b.output(t14, sm.sm);
}

// Frame IV: t5 issues the access and returns the SM token at once, l1 firings of t8 wait, t9 accesses, t11 finishes.
void add_global(NetBuilder& b, const std::string& prefix, const WarpPlaces& p, const SmPart& sm, Tokens l1) {
  const TransitionId t5 = b.add_transition(prefix + "t5");
  b.input(t5, p[11]);
  b.input(t5, p[10]);
  b.output(t5, p[12]);
  b.output(t5, sm.sm);
  const TransitionId t8 = b.add_transition(prefix + "t8");
  const TransitionId t9 = b.add_transition(prefix + "t9");
  add_counter(b, t8, t9, p[12], p[13], l1);
  b.output(t9, p[14]);
  const TransitionId t11 = b.add_transition(prefix + "t11");
  b.input(t11, p[14]);
  finish(b, t11, p);
}

// t16: the warp ends when no instruction is left (see the header for why it takes p3 too).
void add_termination(NetBuilder& b, const std::string& prefix, const WarpPlaces& p, const SmPart& sm) {
  const TransitionId t16 = b.add_transition(prefix + "t16");
  for (const uint32_t i : {1u, 2u, 3u}) b.input(t16, p[i]);
  b.input(t16, sm.active);
  for (const uint32_t i : {5u, 7u, 9u}) b.inhibitor(t16, p[i]);
}

}  // namespace

PlaceId add_paper_warp(NetBuilder& builder, const SmPart& sm, uint32_t index, const PaperWarp& warp,
                       const PaperParams& params) {
  if (params.global_latency < 0 || params.shared_latency < 0) throw std::invalid_argument("negative latency");
  const std::string prefix = "w" + std::to_string(index) + ".";
  const WarpPlaces p = add_places(builder, prefix, warp, params);
  add_selection(builder, prefix, p, sm);
  add_arithmetic(builder, prefix, p, sm);
  add_shared(builder, prefix, p, sm, params.shared_latency);
  add_global(builder, prefix, p, sm, params.global_latency);
  add_termination(builder, prefix, p, sm);
  return p[2];
}

Net paper_sm_net(std::span<const PaperWarp> warps, const PaperParams& params) {
  NetBuilder builder;
  const SmPart sm = add_sm_part(builder, params.schedulers, static_cast<Tokens>(warps.size()));
  std::vector<PlaceId> ready;
  for (uint32_t w = 0; w < warps.size(); ++w) ready.push_back(add_paper_warp(builder, sm, w, warps[w], params));
  inhibit_waiting(builder, sm, ready);
  return builder.build();
}

}  // namespace warpsim::models::petri
