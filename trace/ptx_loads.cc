#include "ptx_loads.h"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace warpsim::trace {
namespace {

using Operand = PtxKernel::Operand;
using Kind = Operand::Kind;
using Definition = PtxKernel::Definition;
using enum PtxKernel::Op;

constexpr std::size_t kSpecials = PtxKernel::kSpecials;
constexpr int kIterations = 4;  // a loop's load is compared at iterations 1..kIterations
constexpr std::size_t kIterationSlots = kIterations + 1;
constexpr std::uint32_t kMaxSimulatedWaves = 12;
constexpr std::int64_t kLineBytes = 128;
constexpr int kMaxDefinitionDepth = 2000;

// A loaded value: the same for threads that load the same address, unrelated for different ones.
std::int64_t loaded_value(std::int64_t address) {
  return static_cast<std::int64_t>(((static_cast<std::uint64_t>(address) * 2654435761ULL) >> 7) & 0xfffff) * 4099;
}

// One thread's values of the registers at an iteration, computed on demand.
class ThreadEvaluator {
 public:
  explicit ThreadEvaluator(const PtxKernel& kernel)
      : kernel_(kernel), value_(kernel.first.size() * kIterationSlots), state_(value_.size(), 0) {}

  void start_thread(const std::array<std::int64_t, kSpecials>& specials) {
    specials_ = specials;
    generation_ += 3;
  }

  std::optional<std::int64_t> address(const PtxKernel::Load& load, int iteration) {
    auto base = operand(load.address, iteration);
    if (!base) return std::nullopt;
    return *base + load.offset;
  }

 private:
  std::optional<std::int64_t> operand(const Operand& o, int iteration) {
    switch (o.kind) {
      case Kind::kImmediate: return o.value;
      case Kind::kSpecial: return specials_[static_cast<std::size_t>(o.value)];
      case Kind::kRegister: return value(static_cast<std::uint32_t>(o.value), iteration);
      default: return std::nullopt;
    }
  }

  std::optional<std::int64_t> value(std::uint32_t r, int iteration) {
    const std::size_t slot = r * kIterationSlots + static_cast<std::size_t>(iteration);
    if (state_[slot] == generation_ + 2) return value_[slot];
    if (state_[slot] == generation_ + 1 || state_[slot] == generation_) return std::nullopt;  // unknown, or a cycle
    // A chain of definitions deeper than any compiler writes (hostile input) is not followed: the stack stays small.
    if (depth_ >= kMaxDefinitionDepth) return std::nullopt;
    state_[slot] = generation_;
    ++depth_;
    std::optional<std::int64_t> v;
    if (iteration > 0) {
      const auto update = kernel_.updates.find(r);
      // A register the loop updates takes its update of the previous iteration's values; any other is computed
      // from this iteration's.
      v = update != kernel_.updates.end() ? evaluate(update->second, iteration - 1)
                                          : evaluate(kernel_.first[r], iteration);
    } else {
      v = evaluate(kernel_.first[r], 0);
    }
    --depth_;
    state_[slot] = v ? generation_ + 2 : generation_ + 1;
    if (v) value_[slot] = *v;
    return v;
  }

  std::optional<std::int64_t> evaluate(const Definition& d, int iteration) {
    if (d.op == kParamValue) return d.operands[0].value;
    std::array<std::int64_t, 3> a{};
    for (std::size_t i = 0; i < d.operands.size() && i < a.size(); ++i) {
      auto v = operand(d.operands[i], iteration);
      if (!v) return std::nullopt;
      a[i] = *v;
    }
    if (d.op == kLoadValue) return d.operands.empty() ? std::nullopt : std::optional(loaded_value(a[0] + d.offset));
    const auto u = [](std::int64_t x) { return static_cast<std::uint64_t>(x); };
    switch (d.op) {
      case kMove: return a[0];
      case kAdd: return static_cast<std::int64_t>(u(a[0]) + u(a[1]));
      case kSub: return static_cast<std::int64_t>(u(a[0]) - u(a[1]));
      case kMul: return static_cast<std::int64_t>(u(a[0]) * u(a[1]));
      case kMad: return static_cast<std::int64_t>(u(a[0]) * u(a[1]) + u(a[2]));
      case kShl:
        return a[1] >= 0 && a[1] < 64 ? std::optional(static_cast<std::int64_t>(u(a[0]) << a[1])) : std::nullopt;
      case kShr: return a[1] >= 0 && a[1] < 64 ? std::optional(a[0] >> a[1]) : std::nullopt;
      case kAnd: return a[0] & a[1];
      case kOr: return a[0] | a[1];
      case kXor: return a[0] ^ a[1];
      case kNeg: return static_cast<std::int64_t>(0 - u(a[0]));
      case kDiv: return a[1] > 0 ? std::optional(a[0] / a[1]) : std::nullopt;  // a divisor <= 0: no index
      case kRem: return a[1] > 0 ? std::optional(a[0] % a[1]) : std::nullopt;
      case kMin: return std::min(a[0], a[1]);
      case kMax: return std::max(a[0], a[1]);
      default: return std::nullopt;
    }
  }

  const PtxKernel& kernel_;
  std::vector<std::int64_t> value_;
  std::vector<std::uint64_t> state_;
  std::uint64_t generation_ = 0;
  int depth_ = 0;
  std::array<std::int64_t, kSpecials> specials_{};
};

using WarpLines = std::vector<std::vector<std::int64_t>>;  // per resident warp: the lines one load touches

int last_iteration(const PtxKernel::Load& load) { return load.in_loop ? kIterations : 0; }

// One wave's lines, per load and iteration, each warp's sorted and unique: every thread of `blocks` evaluated once
// for all loads, so the index arithmetic they share is computed once. `unknown` marks the loads whose address some
// thread's arithmetic does not give.
struct WaveLines {
  std::vector<std::array<WarpLines, kIterationSlots>> lines;  // [load][iteration]
  std::vector<bool> unknown;
};

WaveLines wave_lines(ThreadEvaluator& threads, const PtxKernel& kernel, const std::vector<std::uint64_t>& blocks,
                     const LaunchGeometry& g) {
  const std::uint64_t bx = g.block[0], by = g.block[1], bz = g.block[2];
  const std::uint64_t threads_per_block = bx * by * bz;
  WaveLines wave{std::vector<std::array<WarpLines, kIterationSlots>>(kernel.loads.size()),
                 std::vector<bool>(kernel.loads.size(), false)};
  for (std::uint64_t id : blocks) {
    const std::int64_t cx = static_cast<std::int64_t>(id % g.grid[0]);
    const std::int64_t cy = static_cast<std::int64_t>((id / g.grid[0]) % g.grid[1]);
    const std::int64_t cz = static_cast<std::int64_t>(id / (std::uint64_t{g.grid[0]} * g.grid[1]));
    for (std::uint64_t t = 0; t < threads_per_block; ++t) {
      threads.start_thread({static_cast<std::int64_t>(t % bx), static_cast<std::int64_t>((t / bx) % by),
                            static_cast<std::int64_t>(t / (bx * by)), cx, cy, cz, g.block[0], g.block[1], g.block[2],
                            g.grid[0], g.grid[1], g.grid[2]});
      for (std::size_t l = 0; l < kernel.loads.size(); ++l) {
        const PtxKernel::Load& load = kernel.loads[l];
        for (int it = 0; it <= last_iteration(load) && !wave.unknown[l]; ++it) {
          WarpLines& warps = wave.lines[l][static_cast<std::size_t>(it)];
          if (t % 32 == 0) warps.emplace_back();
          const auto a = threads.address(load, it);
          if (!a) {
            wave.unknown[l] = true;
            break;
          }
          warps.back().push_back(*a / kLineBytes);
          warps.back().push_back((*a + load.bytes - 1) / kLineBytes);
        }
      }
    }
  }
  for (auto& per_iteration : wave.lines)
    for (auto& warps : per_iteration)
      for (auto& lines : warps) {
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
      }
  return wave;
}

struct Requests {
  double inflight = 0;
  double total = 0;
};

// Requests to lines new to the SM beyond each new line's first: they find it in flight. `seen` grows by the lines.
Requests count_inflight(const WarpLines& warps, std::unordered_set<std::int64_t>& seen) {
  Requests r;
  std::unordered_set<std::int64_t> fresh_lines;
  for (const auto& lines : warps) {
    r.total += static_cast<double>(lines.size());
    for (std::int64_t line : lines) {
      if (seen.count(line)) continue;
      r.inflight += 1;
      fresh_lines.insert(line);
    }
  }
  r.inflight -= static_cast<double>(fresh_lines.size());
  seen.insert(fresh_lines.begin(), fresh_lines.end());
  return r;
}

// One load's wave after wave: the lines its SM has seen, and each wave's in-flight share.
struct LoadHistory {
  std::unordered_set<std::int64_t> seen;
  std::vector<double> wave_shares;
  bool unknown = false;  // an address the analysis cannot compute: shared by no other warp

  void add_wave(const std::array<WarpLines, kIterationSlots>& lines, const PtxKernel::Load& load) {
    Requests wave;
    for (int it = 0; it <= last_iteration(load); ++it) {
      const WarpLines& warps = lines[static_cast<std::size_t>(it)];
      if (load.in_loop && it == 0) {
        // A loop's first iteration: what the next ones are compared against.
        for (const auto& l : warps) seen.insert(l.begin(), l.end());
        continue;
      }
      const Requests r = count_inflight(warps, seen);
      wave.inflight += r.inflight;
      wave.total += r.total;
    }
    wave_shares.push_back(wave.total > 0 ? wave.inflight / wave.total : 0);
  }

  // The mean over all `wave_count` waves, the last simulated wave's share for those beyond.
  double share(std::uint64_t wave_count) const {
    if (unknown || wave_shares.empty()) return 0;
    double sum = 0;
    for (double s : wave_shares) sum += s;
    sum += wave_shares.back() * static_cast<double>(wave_count - wave_shares.size());
    return sum / static_cast<double>(wave_count);
  }
};

}  // namespace

double inflight_request_share(const PtxKernel& kernel, const LaunchGeometry& g) {
  if (kernel.loads.empty()) return 0;
  const std::uint64_t blocks = std::uint64_t{g.grid[0]} * g.grid[1] * g.grid[2];
  const std::uint64_t sms = std::max<std::uint32_t>(g.sm_count, 1);
  const std::uint64_t resident =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(g.resident_blocks, (blocks + sms - 1) / sms));
  const std::uint64_t wave_count = std::max<std::uint64_t>(1, (blocks + sms * resident - 1) / (sms * resident));
  std::vector<std::vector<std::uint64_t>> waves;  // the block ids of SM 0's simulated waves
  for (std::uint64_t w = 0; w < std::min<std::uint64_t>(wave_count, kMaxSimulatedWaves); ++w) {
    waves.emplace_back();
    for (std::uint64_t j = w * resident; j < (w + 1) * resident && j * sms < blocks; ++j)
      waves.back().push_back(j * sms);
  }
  ThreadEvaluator threads(kernel);
  std::vector<LoadHistory> history(kernel.loads.size());
  for (const auto& wave_blocks : waves) {
    const WaveLines wave = wave_lines(threads, kernel, wave_blocks, g);
    for (std::size_t l = 0; l < kernel.loads.size(); ++l) {
      history[l].unknown = history[l].unknown || wave.unknown[l];
      if (!history[l].unknown) history[l].add_wave(wave.lines[l], kernel.loads[l]);
    }
  }
  double sum = 0;
  for (const LoadHistory& load : history) sum += load.share(wave_count);
  return sum / static_cast<double>(kernel.loads.size());
}

}  // namespace warpsim::trace
