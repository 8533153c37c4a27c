#include "ptx_loads.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_set>

namespace warpsim::trace {
namespace {

using Operand = PtxKernel::Operand;
using Kind = Operand::Kind;
using Definition = PtxKernel::Definition;

enum Op : std::uint8_t {
  kUnknown,
  kMove,
  kAdd,
  kSub,
  kMul,
  kMad,
  kShl,
  kShr,
  kAnd,
  kOr,
  kXor,
  kNeg,
  kDiv,
  kRem,
  kMin,
  kMax,
  kParamValue,  // ld.param: operand 0 holds the parameter's stand-in value
  kLoadValue,   // any other load: a hash of its address
};

// Special registers: %tid, %ctaid, %ntid, %nctaid, each .x .y .z.
constexpr std::array<std::string_view, 4> kSpecialNames{"%tid.", "%ctaid.", "%ntid.", "%nctaid."};
constexpr std::size_t kSpecials = 12;
constexpr int kIterations = 4;  // a loop's load is compared at iterations 1..kIterations
constexpr std::size_t kIterationSlots = kIterations + 1;
constexpr std::uint32_t kMaxSimulatedWaves = 12;
constexpr std::int64_t kLineBytes = 128;
constexpr int kMaxDefinitionDepth = 2000;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == ';')) s.remove_suffix(1);
  return s;
}

// FNV-1a: a parameter's stand-in must not change from one run to the next.
std::uint64_t stable_hash(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

// A distinct large number per parameter slot: arrays' bases far apart, sizes large enough that rows lie lines apart.
std::int64_t parameter_value(std::string_view symbol) {
  return 1000000 + static_cast<std::int64_t>((stable_hash(symbol) & 0xffff) | 1) * 64;
}

// A loaded value: the same for threads that load the same address, unrelated for different ones.
std::int64_t loaded_value(std::int64_t address) {
  return static_cast<std::int64_t>(((static_cast<std::uint64_t>(address) * 2654435761ULL) >> 7) & 0xfffff) * 4099;
}

std::optional<std::int64_t> parse_integer(std::string_view t) {
  bool negative = !t.empty() && t.front() == '-';
  if (negative) t.remove_prefix(1);
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (!t.empty() && (t.back() == 'U' || t.back() == 'u')) t.remove_suffix(1);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  return static_cast<std::int64_t>(negative ? 0 - v : v);  // two's complement: no signed overflow
}

// 0fXXXXXXXX (float) and 0dXXXXXXXXXXXXXXXX (double) immediates, truncated to an integer.
std::optional<std::int64_t> parse_float_bits(std::string_view t) {
  if (t.size() < 3 || t[0] != '0' || (t[1] != 'f' && t[1] != 'F' && t[1] != 'd' && t[1] != 'D')) return std::nullopt;
  std::uint64_t bits = 0;
  const auto [end, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), bits, 16);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  double value = 0;
  if (t.size() == 10) {
    value = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  } else if (t.size() == 18) {
    value = std::bit_cast<double>(bits);
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(value) || std::abs(value) > 1e18) return std::nullopt;
  return static_cast<std::int64_t>(value);
}

// Operands split at top-level commas (a vector's {a, b} and an address's [a+b] stay whole).
std::vector<std::string_view> split_operands(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '{' || s[i] == '[') ++depth;
    if (s[i] == '}' || s[i] == ']') --depth;
    if (s[i] == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (start < s.size()) out.push_back(trim(s.substr(start)));
  return out;
}

Op op_of(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  const bool high = opcode.find(".hi") != std::string_view::npos;
  static const std::array<std::pair<std::string_view, Op>, 17> kOps{{
      {"mov", kMove},
      {"cvt", kMove},
      {"cvta", kMove},
      {"add", kAdd},
      {"sub", kSub},
      {"mul", kMul},
      {"mad", kMad},
      {"shl", kShl},
      {"shr", kShr},
      {"and", kAnd},
      {"or", kOr},
      {"xor", kXor},
      {"neg", kNeg},
      {"div", kDiv},
      {"rem", kRem},
      {"min", kMin},
      {"max", kMax},
  }};
  if (high) return kUnknown;  // mul.hi, mad.hi: not an index computation
  for (const auto& [name, op] : kOps)
    if (base == name) return op;
  return kUnknown;
}

// The bytes one thread loads: the vector width times the element type's size.
std::uint32_t load_bytes(std::string_view opcode) {
  std::uint32_t count = 1;
  if (opcode.find(".v2") != std::string_view::npos) count = 2;
  if (opcode.find(".v4") != std::string_view::npos) count = 4;
  std::uint32_t size = 4;
  for (auto [suffix, bytes] :
       std::array<std::pair<std::string_view, std::uint32_t>, 4>{{{"8", 1}, {"16", 2}, {"64", 8}, {"128", 16}}}) {
    const std::size_t dot = opcode.rfind('.');
    if (dot != std::string_view::npos && opcode.substr(dot + 2) == suffix) size = bytes;
  }
  return count * size;
}

class KernelParser {
 public:
  PtxKernel parse(std::string_view body) {
    std::vector<std::string_view> instructions;
    std::unordered_map<std::string_view, std::size_t> labels;
    std::size_t pos = 0;
    while (pos < body.size()) {
      std::size_t end = body.find('\n', pos);
      if (end == std::string_view::npos) end = body.size();
      std::string_view line = body.substr(pos, end - pos);
      pos = end + 1;
      if (const std::size_t comment = line.find("//"); comment != std::string_view::npos)
        line = line.substr(0, comment);
      line = trim(line);
      if (line.empty() || line.front() == '.' || line == "{" || line == "}") continue;
      if (line.back() == ':') {
        labels[line.substr(0, line.size() - 1)] = instructions.size();
        continue;
      }
      instructions.push_back(line);
    }
    std::vector<std::pair<std::size_t, std::size_t>> loops;
    for (std::size_t i = 0; i < instructions.size(); ++i) {
      const std::string_view line = strip_predicate(instructions[i]);
      if (line.substr(0, 3) != "bra") continue;
      const auto it = labels.find(trim(line.substr(line.find_first_of(" \t") + 1)));
      if (it != labels.end() && it->second <= i) loops.emplace_back(it->second, i);
    }
    for (std::size_t i = 0; i < instructions.size(); ++i) {
      const bool in_loop =
          std::any_of(loops.begin(), loops.end(), [i](auto l) { return l.first <= i && i <= l.second; });
      add_instruction(strip_predicate(instructions[i]), in_loop);
    }
    return std::move(kernel_);
  }

 private:
  static std::string_view strip_predicate(std::string_view line) {
    if (line.empty() || line.front() != '@') return line;
    const std::size_t space = line.find_first_of(" \t");
    return space == std::string_view::npos ? std::string_view{} : trim(line.substr(space));
  }

  std::uint32_t register_index(std::string_view name) {
    const auto [it, added] = registers_.try_emplace(std::string(name), static_cast<std::uint32_t>(registers_.size()));
    if (added) kernel_.first.emplace_back();
    return it->second;
  }

  Operand operand(std::string_view t) {
    t = trim(t);
    for (std::size_t s = 0; s < kSpecialNames.size(); ++s) {
      if (t.size() == kSpecialNames[s].size() + 1 && t.substr(0, kSpecialNames[s].size()) == kSpecialNames[s]) {
        const char axis = t.back();
        if (axis >= 'x' && axis <= 'z') return {Kind::kSpecial, static_cast<std::int64_t>(s * 3) + (axis - 'x')};
      }
    }
    if (!t.empty() && t.front() == '%') return {Kind::kRegister, register_index(t)};
    if (auto v = parse_integer(t)) return {Kind::kImmediate, *v};
    if (auto v = parse_float_bits(t)) return {Kind::kImmediate, *v};
    return {Kind::kUnknown, 0};
  }

  // "[%rd4+16]": the register and the offset; a symbol's address is unknown.
  std::pair<Operand, std::int64_t> address(std::string_view bracketed) {
    std::string_view inner = trim(bracketed);
    if (inner.size() < 2 || inner.front() != '[' || inner.back() != ']') return {{Kind::kUnknown, 0}, 0};
    inner = trim(inner.substr(1, inner.size() - 2));
    const std::size_t plus = inner.find('+');
    Operand base = operand(inner.substr(0, plus));
    std::int64_t offset = 0;
    if (plus != std::string_view::npos) {
      const auto v = parse_integer(trim(inner.substr(plus + 1)));
      if (!v) return {{Kind::kUnknown, 0}, 0};
      offset = *v;
    }
    if (base.kind != Kind::kRegister) return {{Kind::kUnknown, 0}, 0};
    return {base, offset};
  }

  void define(std::string_view destination, Definition d) {
    for (std::size_t p = destination.find('%'); p != std::string_view::npos; p = destination.find('%', p + 1)) {
      const std::size_t end = destination.find_first_of(",} ", p);
      const std::uint32_t r = register_index(destination.substr(p, end == std::string_view::npos ? end : end - p));
      if (defined_.insert(r).second) {
        kernel_.first[r] = d;
      } else {
        kernel_.updates[r] = d;  // a loop's update: the last definition
      }
    }
  }

  void add_instruction(std::string_view line, bool in_loop) {
    const std::size_t space = line.find_first_of(" \t");
    if (space == std::string_view::npos) return;
    const std::string_view opcode = line.substr(0, space);
    const std::vector<std::string_view> ops = split_operands(line.substr(space + 1));
    if (ops.empty()) return;
    const bool is_load = opcode.substr(0, 3) == "ld." || opcode.substr(0, 4) == "ldu.";
    if (opcode.substr(0, 3) == "st." || opcode.substr(0, 4) == "setp" || opcode.substr(0, 3) == "bra" ||
        opcode.substr(0, 3) == "red" || opcode.substr(0, 3) == "bar" ||
        (ops[0].front() != '%' && ops[0].front() != '{'))
      return;
    Definition d;
    if (is_load && ops.size() >= 2) {
      if (opcode.find(".param") != std::string_view::npos) {
        d.op = kParamValue;
        d.operands.push_back({Kind::kImmediate, parameter_value(ops[1])});
      } else {
        const auto [base, offset] = address(ops[1]);
        d.op = kLoadValue;
        d.operands.push_back(base);
        d.offset = offset;
        if (opcode.find(".global") != std::string_view::npos)
          kernel_.loads.push_back({base, offset, load_bytes(opcode), in_loop});
      }
      define(ops[0], std::move(d));
      return;
    }
    d.op = ops[0].front() == '{' ? kUnknown : op_of(opcode);  // a vector unpacked into registers: not followed
    for (std::size_t i = 1; i < ops.size(); ++i) d.operands.push_back(operand(ops[i]));
    if (d.op == kUnknown) d.operands.clear();
    define(ops[0], std::move(d));
  }

  PtxKernel kernel_;
  std::unordered_map<std::string, std::uint32_t> registers_;
  std::unordered_set<std::uint32_t> defined_;
};

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

std::unordered_map<std::string, PtxKernel> parse_ptx(std::string_view ptx) {
  std::unordered_map<std::string, PtxKernel> kernels;
  for (std::size_t at = ptx.find(".entry"); at != std::string_view::npos; at = ptx.find(".entry", at + 1)) {
    std::size_t name_begin = ptx.find_first_not_of(" \t", at + 6);
    if (name_begin == std::string_view::npos) break;
    const std::size_t name_end = ptx.find_first_of("( \t\n", name_begin);
    const std::size_t body_begin = ptx.find('{', name_end);
    const std::size_t body_end = ptx.find("\n}", body_begin);
    if (name_end == std::string_view::npos || body_begin == std::string_view::npos ||
        body_end == std::string_view::npos)
      break;
    kernels.emplace(std::string(ptx.substr(name_begin, name_end - name_begin)),
                    KernelParser().parse(ptx.substr(body_begin + 1, body_end - body_begin - 1)));
  }
  return kernels;
}

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
