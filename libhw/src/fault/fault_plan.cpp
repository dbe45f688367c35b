#include "fault/fault_plan.hpp"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"

namespace wavescope::hw::sim {

namespace {

struct KindName {
  FaultKind kind;
  const char *name;
};
constexpr KindName kKindNames[] = {
    {FaultKind::ReadBitFlip, "bitflip"},
    {FaultKind::EraseFailure, "erase-fail"},
    {FaultKind::ProgramFailure, "program-fail"},
    {FaultKind::StuckBusy, "stuck-busy"},
    {FaultKind::SlowChip, "slow"},
    {FaultKind::RomSwHang, "rom-sw-hang"},
    {FaultKind::RomSwGate, "rom-sw-gate"},
    {FaultKind::WrenIgnored, "wren-ignored"},
    {FaultKind::Protection, "protect"},
    {FaultKind::WrongJedec, "jedec"},
    {FaultKind::PowerLoss, "power-loss"},
    {FaultKind::Psp, "psp"},
    {FaultKind::Aperture, "aperture"},
    {FaultKind::Usb, "usb"},
    {FaultKind::LinkDown, "link-down"},
};

const char *kind_name(FaultKind kind) {
  for (const auto &k : kKindNames)
    if (k.kind == kind) return k.name;
  return "?";
}

const char *op_name(ChipOpFilter op) {
  switch (op) {
  case ChipOpFilter::Any: return "any";
  case ChipOpFilter::Erase: return "erase";
  case ChipOpFilter::Program: return "program";
  case ChipOpFilter::Wrsr: return "wrsr";
  }
  return "any";
}

const char *kUsage =
    "fault specs: bitflip:addr=A,bit=B[,sticky][,sfdp] | erase-fail:sector=S[,cells=K][,stuck0] | "
    "program-fail:page=P[,bits=K] | stuck-busy[:op=erase|program|wrsr|any][,nth=N] | "
    "slow:factor=F | rom-sw-hang[:nth=N] | rom-sw-gate[:nth=N] | wren-ignored[:nth=N] | "
    "protect:[cmp=0|1][,bp=0..31][,sr1=X][,sr2=X][,lock] | jedec:id=0xC86014 | "
    "power-loss[:op=erase|program|wrsr|any][,nth=N] | "
    "psp:mode=never-ready|busy|error[,code=E][,cmd=C][,nth=N] | aperture:mode=mirror|absent | "
    "usb:SPEC | link-down[:nth=N]; triggers: nth=N, from=A,to=B, p=P, always";

std::uint64_t number(const std::string &spec, const std::string &key, const std::string &text) {
  if (const auto value = parse_unsigned(text)) return *value;
  throw Error(ErrorKind::Usage,
              fmt::format("fault '{}': {}='{}' is not a number", spec, key, text));
}

ChipOpFilter parse_op(const std::string &spec, const std::string &text) {
  if (text == "any") return ChipOpFilter::Any;
  if (text == "erase") return ChipOpFilter::Erase;
  if (text == "program") return ChipOpFilter::Program;
  if (text == "wrsr") return ChipOpFilter::Wrsr;
  throw Error(
      ErrorKind::Usage,
      fmt::format("fault '{}': op='{}' (expected erase, program, wrsr or any)", spec, text));
}

std::string trigger_text(const FaultTrigger &t) {
  switch (t.kind) {
  case FaultTrigger::Kind::Nth: return fmt::format("nth={}", t.n);
  case FaultTrigger::Kind::Range: return fmt::format("from={},to={}", t.from, t.to);
  case FaultTrigger::Kind::Probability: return fmt::format("p={}", t.probability);
  case FaultTrigger::Kind::Always: return "always";
  }
  return "always";
}

}  // namespace

bool Fault::hit(SimRandom &random) {
  ++matched;
  bool take = false;
  switch (trigger.kind) {
  case FaultTrigger::Kind::Nth: take = matched == trigger.n; break;
  case FaultTrigger::Kind::Range: take = matched >= trigger.from && matched < trigger.to; break;
  case FaultTrigger::Kind::Probability: take = random.unit() < trigger.probability; break;
  case FaultTrigger::Kind::Always: take = true; break;
  }
  if (take) ++fired;
  return take;
}

std::string Fault::describe() const {
  std::vector<std::string> parts;
  switch (kind) {
  case FaultKind::ReadBitFlip:
    parts.push_back(fmt::format("addr=0x{:06X}", address));
    parts.push_back(fmt::format("bit={}", bit));
    if (sfdp) parts.push_back("sfdp");
    break;
  case FaultKind::EraseFailure:
    parts.push_back(fmt::format("sector={}", address));
    parts.push_back(fmt::format("cells={}", count));
    if (stuck_at_zero) parts.push_back("stuck0");
    break;
  case FaultKind::ProgramFailure:
    parts.push_back(fmt::format("page=0x{:X}", address));
    parts.push_back(fmt::format("bits={}", count));
    break;
  case FaultKind::StuckBusy:
  case FaultKind::PowerLoss: parts.push_back(fmt::format("op={}", op_name(op))); break;
  case FaultKind::SlowChip: parts.push_back(fmt::format("factor={}", factor)); break;
  case FaultKind::Protection:
    parts.push_back(fmt::format("sr1=0x{:02X}", sr1));
    parts.push_back(fmt::format("sr2=0x{:02X}", sr2));
    if (lock) parts.push_back("lock");
    break;
  case FaultKind::WrongJedec: parts.push_back(fmt::format("id=0x{:06X}", jedec)); break;
  case FaultKind::Psp:
    parts.push_back("mode=" + mode);
    if (mode == "error") parts.push_back(fmt::format("code=0x{:02X}", code));
    if (command) parts.push_back(fmt::format("cmd=0x{:02X}", *command));
    break;
  case FaultKind::Aperture: parts.push_back("mode=" + mode); break;
  case FaultKind::Usb: return "usb:" + usb_spec;
  default: break;
  }
  parts.push_back(trigger_text(trigger));
  std::string out = kind_name(kind);
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "," : ":") + parts[i];
  return out;
}

namespace {

// The "key=value,flag,..." part of a fault spec; each phase takes the keys it knows, and what is
// left at the end is unknown.
class FaultKeys {
public:
  FaultKeys(const std::string &spec, const std::string &rest) : spec_(spec) {
    std::size_t start = 0;
    while (start < rest.size()) {
      std::size_t end = rest.find(',', start);
      if (end == std::string::npos) end = rest.size();
      const std::string item = rest.substr(start, end - start);
      if (!item.empty()) {
        const auto eq = item.find('=');
        keys_[item.substr(0, eq)] = eq == std::string::npos ? "" : item.substr(eq + 1);
      }
      start = end + 1;
    }
  }
  const std::string &spec() const { return spec_; }
  std::optional<std::string> take(const char *key) {
    auto it = keys_.find(key);
    if (it == keys_.end()) return std::nullopt;
    std::string value = it->second;
    keys_.erase(it);
    return value;
  }
  std::string need(const char *key) {
    auto value = take(key);
    if (!value || value->empty())
      throw Error(ErrorKind::Usage, fmt::format("fault '{}' needs {}=...; {}", spec_, key, kUsage));
    return *value;
  }
  std::uint64_t num(const std::string &key, const std::string &text) const {
    return number(spec_, key, text);
  }
  void reject_the_rest() const {
    if (!keys_.empty())
      throw Error(ErrorKind::Usage, fmt::format("fault '{}': unknown key '{}'; {}", spec_,
                                                keys_.begin()->first, kUsage));
  }

private:
  const std::string &spec_;
  std::map<std::string, std::string> keys_;
};

FaultKind parse_kind(const std::string &name) {
  for (const auto &k : kKindNames)
    if (name == k.name) return k.kind;
  throw Error(ErrorKind::Usage, fmt::format("unknown fault '{}'; {}", name, kUsage));
}

// Transient F1 and one-shot F4/F6/F7/F11/F15 fire at the first matching operation; state-like
// faults apply from now on.
FaultTrigger::Kind default_trigger(FaultKind kind) {
  switch (kind) {
  case FaultKind::ReadBitFlip:
  case FaultKind::StuckBusy:
  case FaultKind::RomSwHang:
  case FaultKind::RomSwGate:
  case FaultKind::PowerLoss:
  case FaultKind::LinkDown:
  case FaultKind::Psp: return FaultTrigger::Kind::Nth;
  default: return FaultTrigger::Kind::Always;
  }
}

// The keys that say what the fault does (address, bit, mode, ...), per kind.
void parse_effect(Fault &f, FaultKeys &keys) {
  const std::string &spec = keys.spec();
  switch (f.kind) {
  case FaultKind::ReadBitFlip:
    f.address = static_cast<std::uint32_t>(keys.num("addr", keys.need("addr")));
    f.bit = static_cast<unsigned>(keys.num("bit", keys.need("bit")));
    if (f.bit > 7) throw Error(ErrorKind::Usage, fmt::format("fault '{}': bit must be 0..7", spec));
    if (keys.take("sticky")) f.trigger.kind = FaultTrigger::Kind::Always;
    if (keys.take("sfdp")) f.sfdp = true;
    break;
  case FaultKind::EraseFailure:
    f.address = static_cast<std::uint32_t>(keys.num("sector", keys.need("sector")));
    f.count = 8;
    if (auto v = keys.take("cells")) f.count = static_cast<unsigned>(keys.num("cells", *v));
    if (keys.take("stuck0")) f.stuck_at_zero = true;
    break;
  case FaultKind::ProgramFailure:
    f.address = static_cast<std::uint32_t>(keys.num("page", keys.need("page")));
    f.count = 4;
    if (auto v = keys.take("bits")) f.count = static_cast<unsigned>(keys.num("bits", *v));
    break;
  case FaultKind::StuckBusy:
  case FaultKind::PowerLoss:
    if (auto v = keys.take("op")) f.op = parse_op(spec, *v);
    break;
  case FaultKind::SlowChip: {
    const auto v = keys.need("factor");
    f.factor = static_cast<double>(keys.num("factor", v));
    if (f.factor < 1) throw Error(ErrorKind::Usage, "fault 'slow': factor must be >= 1");
    break;
  }
  case FaultKind::Protection:
    if (auto v = keys.take("sr1")) f.sr1 = static_cast<std::uint8_t>(keys.num("sr1", *v));
    if (auto v = keys.take("sr2")) f.sr2 = static_cast<std::uint8_t>(keys.num("sr2", *v));
    if (auto v = keys.take("bp"))
      f.sr1 = static_cast<std::uint8_t>((f.sr1 & ~0x7C) | ((keys.num("bp", *v) & 0x1F) << 2));
    if (auto v = keys.take("cmp"))
      f.sr2 = static_cast<std::uint8_t>(keys.num("cmp", *v) ? (f.sr2 | 0x40) : (f.sr2 & ~0x40));
    if (keys.take("lock")) f.lock = true;
    break;
  case FaultKind::WrongJedec:
    f.jedec = static_cast<std::uint32_t>(keys.num("id", keys.need("id")) & 0xFFFFFF);
    break;
  case FaultKind::Psp:
    f.mode = keys.need("mode");
    if (f.mode != "never-ready" && f.mode != "busy" && f.mode != "error")
      throw Error(ErrorKind::Usage,
                  fmt::format("fault '{}': mode must be never-ready, busy or error", spec));
    if (f.mode == "error") f.code = static_cast<std::uint16_t>(keys.num("code", keys.need("code")));
    if (auto v = keys.take("cmd")) f.command = static_cast<std::uint8_t>(keys.num("cmd", *v));
    if (f.mode == "never-ready") f.trigger.kind = FaultTrigger::Kind::Always;
    break;
  case FaultKind::Aperture:
    f.mode = keys.need("mode");
    if (f.mode != "mirror" && f.mode != "absent")
      throw Error(ErrorKind::Usage, fmt::format("fault '{}': mode must be mirror or absent", spec));
    break;
  default: break;
  }
}

// The keys that say when it fires: nth=N, from=A,to=B, p=P, always.
void parse_trigger(FaultTrigger &trigger, FaultKeys &keys) {
  const std::string &spec = keys.spec();
  if (auto v = keys.take("nth")) {
    trigger.kind = FaultTrigger::Kind::Nth;
    trigger.n = keys.num("nth", *v);
    if (trigger.n == 0)
      throw Error(ErrorKind::Usage, fmt::format("fault '{}': nth counts from 1", spec));
  }
  if (auto v = keys.take("from")) {
    trigger.kind = FaultTrigger::Kind::Range;
    trigger.from = keys.num("from", *v);
    trigger.to = keys.num("to", keys.need("to"));
  }
  if (auto v = keys.take("p")) {
    trigger.kind = FaultTrigger::Kind::Probability;
    try {
      trigger.probability = std::stod(*v);
    } catch (const std::exception &) {
      throw Error(ErrorKind::Usage,
                  fmt::format("fault '{}': p='{}' is not a probability", spec, *v));
    }
  }
  if (keys.take("always")) trigger.kind = FaultTrigger::Kind::Always;
}

}  // namespace

Fault parse_fault(const std::string &spec) {
  const auto colon = spec.find(':');
  Fault f;
  f.kind = parse_kind(spec.substr(0, colon));
  const std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (f.kind == FaultKind::Usb) {
    if (rest.empty())
      throw Error(ErrorKind::Usage, "fault 'usb' needs the bridge's fault spec after 'usb:'");
    f.usb_spec = rest;
    return f;
  }
  FaultKeys keys(spec, rest);
  f.trigger.kind = default_trigger(f.kind);
  parse_effect(f, keys);
  parse_trigger(f.trigger, keys);
  keys.reject_the_rest();
  return f;
}

std::vector<Fault *> FaultPlan::of(FaultKind kind) {
  std::vector<Fault *> out;
  for (auto &f : faults_)
    if (f.kind == kind) out.push_back(&f);
  return out;
}

bool FaultPlan::any(FaultKind kind) const {
  for (const auto &f : faults_)
    if (f.kind == kind) return true;
  return false;
}

nlohmann::json to_json(const Fault &f) {
  nlohmann::json j = {{"spec", f.describe()}, {"matched", f.matched}, {"fired", f.fired}};
  return j;
}

Fault fault_from_json(const nlohmann::json &j) {
  Fault f = parse_fault(j.at("spec").get<std::string>());
  f.matched = j.value("matched", std::uint64_t{0});
  f.fired = j.value("fired", std::uint64_t{0});
  return f;
}

}  // namespace wavescope::hw::sim
