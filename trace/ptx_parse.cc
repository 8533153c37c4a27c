// Parsing a PTX module into the global loads of its kernels and the definitions their addresses come from
// (ptx_loads.h); ptx_loads.cc evaluates them.
#include "ptx_loads.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <unordered_set>

namespace warpsim::trace {
namespace {

using Operand = PtxKernel::Operand;
using Kind = Operand::Kind;
using Definition = PtxKernel::Definition;
using enum PtxKernel::Op;

// Special registers in PtxKernel's order (kSpecials): %tid, %ctaid, %ntid, %nctaid, each .x .y .z.
constexpr std::array<std::string_view, 4> kSpecialNames{"%tid.", "%ctaid.", "%ntid.", "%nctaid."};

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

PtxKernel::Op op_of(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  const bool high = opcode.find(".hi") != std::string_view::npos;
  static const std::array<std::pair<std::string_view, PtxKernel::Op>, 17> kOps{{
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

}  // namespace warpsim::trace
