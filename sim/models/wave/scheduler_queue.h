#pragma once
// A processing block's warp scheduler as a closed queue: the machine-repairman model. Each of the block's warps
// alternates between the scheduler (one issue, `issue_cycles` per instruction on average: one warp is served at a
// time) and the rest of its path (`think_cycles` per instruction: the latencies the compiler did not hide), so the
// time moves smoothly from the latency bound (few warps: each waits on its own path) to the issue bound (many warps:
// the scheduler never idles), where max(latency, issue) jumps from one to the other as if the warps' waits never
// coincided. They do coincide when the waits vary from one load to the next (L1, L2 or DRAM): then warps find the
// scheduler busy after their own waits and leave it idle together. Exact mean-value analysis with exponential times
// (the product-form network; no constant), for whole warps.
//
//   R(k) = S (1 + Q(k-1)),  X(k) = k / (R(k) + Z),  Q(k) = X(k) R(k),  k = 1..N;   time = N n / X(N)
namespace warpsim::models::wave {

/// Cycles the scheduler needs for `warps` warps of `instructions` each, `issue_cycles` and `path_cycles` being one
/// warp's issue occupancy and dependent path in all (path >= issue; think time = path - issue). Never below either
/// bound: max(path, warps x issue).
double closed_queue_cycles(double warps, double instructions, double issue_cycles, double path_cycles);

}  // namespace warpsim::models::wave
