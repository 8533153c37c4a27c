#pragma once
// The paper's warp Petri-net model (WPNM, paper 000 Section 4, Figure 2 and Table 1), one per warp, around the shared
// SM part (sm_part.h). Names follow the paper with the warp as prefix: "w3.p5" is place p5 of warp 3.
//
// The text fixes the places, the transitions, the instruction paths and where the SM token goes; Figure 2's arcs did
// not survive extraction, except for the labels "xa", "xs", "xg", "l1", "l2" beside places (initial markings, as
// "xa p5") and the weights "l1+1", "l2+1" and "2" near the latency counters. The latency counters below are our
// reconstruction from those labels (README.md draws them):
//
//   frame I (select)   t2: p3 + p5 -> p4 + p6        t3: p3 + p7 -> p4 + p8        t4: p3 + p9 -> p4 + p10
//   issue              t1: p2 + p4 + p0 -> p11
//   frame II (arith.)  t7: p11 + p6 -> p17           t15: p17 -> p2 + p3 + p0
//   frame III (shared) t6: p11 + p8 -> p15           t17: p15 + p18 -> 2 p15        (p18 starts with l2 tokens)
//                      t12: (l2+1) p15 -> p16 + l2 p18                             t14: p16 -> p2 + p3 + p0
//   frame IV (global)  t5: p11 + p10 -> p12 + p0     t8:  p12 + p13 -> 2 p12        (p13 starts with l1 tokens)
//                      t9: (l1+1) p12 -> p14 + l1 p13                              t11: p14 -> p2 + p3
//   terminate          t16: p1 + p2 + p3 + p_active ->  , inhibited by p5, p7, p9
//
// t8 (t17) moves one token per step from the counter p13 (p18) into p12 (p15); t9 (t12) needs the l1+1 (l2+1) tokens
// that l1 (l2) firings leave there, so it fires only after exactly l1 (l2) waiting steps, and refills the counter.
// t5 gives the SM token back at once (the SM serves other warps during a global access); shared and arithmetic
// instructions hold it until they finish, as the text says.
//
// t16 takes p3 as well as p2 (the text names only p2): between the selection of a warp's last instruction and its end
// p5, p7 and p9 are all empty while p2 may still be marked, so with p2 alone t16 could end the warp with a selected
// instruction never executed. p3 is away exactly from selection to completion. t16 also takes one p_active token.
//
// Steps per instruction for a lone warp (selection, issue, execution, completion; the next selection follows):
// arithmetic 4, shared 5 + l2, global 5 + l1; plus one step for t16. The text numbers transitions up to t17 and says
// 17, but neither Figure 2 nor Table 1 has a t10 or a t13, and this construction needs none: 15 per warp.
//
// Time unit. The paper equates the step count with execution time but fixes no unit. An arithmetic instruction holds
// its scheduler token for 3 steps (t1, t7, t15: the token is free again 3 steps after t1), so an SM whose warps
// are always ready completes one instruction per token every 3 steps, where a warp scheduler issues one per cycle.
// Equating those issue rates makes a step 1/3 of an SM cycle (kPaperStepsPerCycle); latencies stay the paper's, in
// steps. A step of one cycle would make the paper's SM issue at a third of the hardware rate.
#include <cstdint>
#include <span>
#include <vector>

#include "petri/net.h"
#include "petri/sm_part.h"

namespace warpsim::models::petri {

/// The instructions of one warp, by the paper's three kinds (initial markings of p5, p7, p9).
struct PaperWarp {
  Tokens arithmetic = 0;  // xa
  Tokens shared = 0;      // xs
  Tokens global = 0;      // xg
};

/// Steps per SM cycle of the paper's net: the steps a scheduler token is held by one arithmetic instruction, over
/// the one cycle in which a warp scheduler issues one (see "Time unit" above).
inline constexpr double kPaperStepsPerCycle = 3;

struct PaperParams {
  Tokens schedulers = 4;       // initial marking of p0
  Tokens global_latency = 20;  // l1, the paper's default
  Tokens shared_latency = 2;   // l2, the paper's default
};

/// Adds warp `index`'s 18 places and 15 transitions; returns its p2 (ready) place for t0's inhibitor arc.
PlaceId add_paper_warp(NetBuilder& builder, const SmPart& sm, uint32_t index, const PaperWarp& warp,
                       const PaperParams& params);

/// The net of one SM: the SM part, then one WPNM per warp. t0 is transition 0.
Net paper_sm_net(std::span<const PaperWarp> warps, const PaperParams& params);

}  // namespace warpsim::models::petri
