#pragma once
// The `petri` variant's SM net: the paper's warp net generalised to eight instruction kinds, with latencies and pipe
// throughputs from the platform and a bound on the SM's in-flight DRAM requests. README.md draws it.
//
// Per warp w (names "w3.p2", "w3.sel.fp32", ...), kinds k with a non-zero count only:
//   places      p1 active, p2 ready (previous result available), p3 fetch (may select the next), p4 selected,
//               count.k (x_k instructions left), instr.k (the selected one is of kind k), p11 issued,
//               wait (an instruction in flight), lat (its latency left), mem (it holds a DRAM slot; DRAM kinds only)
//   sel.k       p3 + count.k -> p4 + instr.k
//   t1 (issue)  p2 + p4 + read p0 -> p11            one issue per scheduler token per step: the token is put back
//   exec.k      p11 + instr.k [+ pipe k] [+ dram slot] -> wait + (L_k - 3) lat + p3 [+ mem]
//   tick        wait + lat -> wait                  one per step: counts the latency down
//   done        wait -> p2, inhibited by lat, mem   done.mem: wait + mem -> p2 + dram slot, inhibited by lat
//   t16         p1 + p2 + p3 + p_active -> , inhibited by every count.k
// A lone warp issues a dependent instruction of kind k every max(L_k, 3) steps: issue, dispatch, L_k - 3 ticks,
// completion; selecting the next overlaps the latency (exec returns p3 at once). The paper keeps the SM token until
// an arithmetic or shared instruction completes; here a scheduler issues one instruction per step and moves on, as
// the hardware does, and the pipes and the DRAM slots are what an instruction holds.
//
// Shared per SM, besides p0, p_active and t0 (sm_part.h):
//   pipe.P      a pipe retiring r >= 1 warp instructions per step: floor(r) tokens, read by exec (r >= schedulers:
//               no place, issue bounds first). r < 1: one token, held for h = round(1/r) steps by the counter
//               pipe.P.busy / pipe.P.count with pipe.P.tick and pipe.P.release (as the warp's lat/tick/done).
//   dram        slots: the DRAM requests one SM may have in flight (kernel_nets.h derives the number).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "petri/instruction_kind.h"
#include "petri/net.h"

namespace warpsim::models::petri {

/// An execution pipe: warp instructions it accepts per step per SM (0: unlimited).
struct PipeSpec {
  std::string name;  // "fma", "alu", "fp64", "xu", "tensor", "lsu"
  double rate = 0;
};

struct KindSpec {
  Tokens latency = 1;  // steps from issue to the next dependent issue (SM cycles), >= 1
  int pipe = -1;       // index into ExtendedParams::pipes, -1: none
};

struct ExtendedParams {
  Tokens schedulers = 4;
  PerKind<KindSpec> kinds{};
  std::vector<PipeSpec> pipes;
  Tokens dram_slots = 0;  // in-flight global/local requests per SM; 0: unbounded
};

/// Fixed steps of every instruction in this net: issue, dispatch, completion. A kind of latency L waits L - 3 more.
inline constexpr Tokens kFixedStepsPerInstruction = 3;

/// The net of one SM with one warp per element of `warps` (instruction counts by kind). t0 is transition 0.
Net extended_sm_net(std::span<const PerKind<Tokens>> warps, const ExtendedParams& params);

}  // namespace warpsim::models::petri
