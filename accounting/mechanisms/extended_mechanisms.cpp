// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/extended_mechanisms.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/ledger_file.h"
#include "accounting/mechanisms/spec_text.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/infinity.h"
#include "accounting/numeric/interval.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>

namespace dpl {

namespace {

// Nesting of select:run=[...] inside another select (each level parses its run).
constexpr int kMaxSelectDepth = 4;
thread_local int select_depth = 0;

using spec_text::fail;
using spec_text::trim;

// The typed values of one spec: text by key, the "?" key replaced by the substitute.
class Values {
 public:
  Values(const RawSpec& raw, std::optional<double> substitute) : raw_(raw) {
    for (const auto& [k, v] : raw.params) {
      if (v == "?") {
        if (!substitute) fail(raw, "'" + k + "=?' has no value to substitute");
        text_[k] = format_input(*substitute);
        substituted_ = k;
      } else {
        text_[k] = v;
      }
    }
  }
  bool has(const std::string& k) const { return text_.count(k) > 0; }
  // Whether a decimal read so far is not a double (held by one of its ends).
  bool inexact() const { return inexact_; }
  const std::string& text(const std::string& k) const {
    const auto it = text_.find(k);
    if (it == text_.end()) fail(raw_, "missing required key '" + k + "'");
    return it->second;
  }
  // The decimal typed for k: its doubles below and above (both the value itself for a substituted "?").
  DecimalValue decimal(const std::string& k) const { return decimal_of(k, text(k)); }
  DecimalValue decimal_of(const std::string& k, const std::string& t) const {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end == t.c_str() || *end != '\0') fail(raw_, k + "=" + t + " is not a number");
    if (!std::isfinite(v) || errno == ERANGE) fail(raw_, k + "=" + t + " is not a finite number");
    if (k == substituted_) return DecimalValue{exact(v), v, v, v};
    try {
      const DecimalValue d = decimal_value(t);
      inexact_ = inexact_ || d.down != d.up;
      return d;
    } catch (const std::invalid_argument&) {
      fail(raw_, k + "=" + t + " is not a decimal number");
    }
  }
  // A positive finite value rounded down (noise) or up (sensitivities, guarantees).
  double positive_down(const std::string& k) const { return in_range(k, decimal(k).down, 0, kInf, "(0, inf)"); }
  double positive_up(const std::string& k) const { return in_range(k, decimal(k).up, 0, kInf, "(0, inf)"); }
  double nonnegative_up(const std::string& k) const {
    const DecimalValue d = decimal(k);
    if (!(d.nearest >= 0) || d.up == kInf) range_error(k, "[0, inf)");
    return d.up;
  }
  double in_range(const std::string& k, double v, double lo_open, double hi_open, const char* range) const {
    if (!(v > lo_open && v < hi_open)) range_error(k, range);
    return v;
  }
  std::int64_t count(const std::string& k, std::int64_t min) const {
    const DecimalValue d = decimal(k);
    if (d.down != d.up || d.nearest != std::floor(d.nearest) || d.nearest < static_cast<double>(min) || d.nearest > 1e15)
      fail(raw_, k + "=" + text(k) + " must be an integer in [" + std::to_string(min) + ", 1e15]");
    return static_cast<std::int64_t>(d.nearest);
  }
  [[noreturn]] void range_error(const std::string& k, const std::string& range) const {
    fail(raw_, k + "=" + text(k) + " is out of range: allowed " + range);
  }
  const RawSpec& raw() const { return raw_; }

 private:
  const RawSpec& raw_;
  std::map<std::string, std::string> text_;
  std::string substituted_;
  mutable bool inexact_ = false;
};

// "[a,b,c]" -> {"a", "b", "c"} (the brackets are required; items trimmed, none empty).
std::vector<std::string> bracket_list(const Values& v, const std::string& key, char sep) {
  const std::string t = trim(v.text(key));
  if (t.size() < 2 || t.front() != '[' || t.back() != ']')
    fail(v.raw(), key + "=" + t + " must be a list in brackets, e.g. " + key + "=[0,1,2]");
  std::vector<std::string> items = split_outside_brackets(t.substr(1, t.size() - 2), sep, "-m " + v.raw().text);
  for (auto& i : items) {
    i = trim(i);
    if (i.empty()) fail(v.raw(), key + "=" + t + " has an empty item");
  }
  return items;
}

void steps_modifier(const Values& v, LedgerEntry& e) {
  if (v.has("steps")) e.steps = v.count("steps", 1);
}

// q and sampling on the mechanisms that take them (Poisson or without replacement, as for the first six).
void sampling_modifiers(const Values& v, LedgerEntry& e) {
  if (v.has("q")) {
    e.q = v.decimal("q").up;
    if (!(e.q > 0 && e.q <= 1)) v.range_error("q", "(0, 1]");
    e.sampling = Sampling::poisson;
  }
  if (v.has("sampling")) {
    const std::string& s = v.text("sampling");
    if (s == "poisson_replace_one")
      fail(v.raw(), "sampling=poisson_replace_one is analysed for gaussian only (Lebeda, Regehr, Kamath and "
                    "Steinke 2025, Prop. 13)");
    if (s != "poisson" && s != "wor") fail(v.raw(), "sampling=" + s + " is not one of poisson, wor");
    if (!v.has("q")) fail(v.raw(), "sampling=" + s + " needs q");
    e.sampling = s == "wor" ? Sampling::wor : Sampling::poisson;
  }
}

std::string join(const std::vector<double>& xs) {
  std::string s = "[";
  for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? "," : "") + format_input(xs[i]);
  return s + "]";
}

}  // namespace

std::vector<std::string> split_outside_brackets(const std::string& s, char sep, const std::string& what) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) throw InputError(what + ": ']' without '['");
    if (c == sep && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (depth != 0) throw InputError(what + ": '[' without ']'");
  out.push_back(cur);
  return out;
}

const std::vector<std::pair<std::string, MechanismKind>>& extended_mechanism_names() {
  static const std::vector<std::pair<std::string, MechanismKind>> names = {
      {"discrete_gaussian", MechanismKind::discrete_gaussian},
      {"discrete_laplace", MechanismKind::discrete_laplace},
      {"zcdp", MechanismKind::zcdp},
      {"exponential", MechanismKind::exponential},
      {"permute_and_flip", MechanismKind::permute_and_flip},
      {"tree", MechanismKind::tree},
      {"mixture", MechanismKind::mixture},
      {"truncated_gaussian", MechanismKind::truncated_gaussian},
      {"wr_gaussian", MechanismKind::wr_gaussian},
      {"select", MechanismKind::select},
      {"shuffle", MechanismKind::shuffle}};
  return names;
}

bool is_extended(MechanismKind k) {
  for (const auto& [name, kind] : extended_mechanism_names())
    if (kind == k) return true;
  return false;
}

bool typed_as_extended(const RawSpec& raw, MechanismKind k) {
  if (is_extended(k)) return true;
  if (k != MechanismKind::rr) return false;
  for (const auto& [key, value] : raw.params)
    if (key == "p" || key == "k") return true;
  return false;
}

std::vector<std::string> extended_allowed_keys(MechanismKind k) {
  const std::vector<std::string> sampled = {"steps", "q", "sampling"};
  std::vector<std::string> keys;
  switch (k) {
    case MechanismKind::discrete_gaussian: keys = {"sigma", "sens", "dim"}; break;
    case MechanismKind::discrete_laplace: keys = {"a", "sens"}; break;
    case MechanismKind::zcdp: keys = {"rho", "xi"}; break;
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip: keys = {"eps"}; break;
    case MechanismKind::tree: return {"sigma", "sens", "leaves", "steps"};
    case MechanismKind::mixture: return {"sigma", "sens", "probs", "steps"};
    case MechanismKind::truncated_gaussian: return {"sigma", "sens", "q", "batch_size", "dataset_size", "steps"};
    case MechanismKind::wr_gaussian: return {"sigma", "sens", "batch_size", "dataset_size", "steps"};
    case MechanismKind::select: return {"mean", "shape", "run", "steps"};
    case MechanismKind::shuffle: return {"eps0", "n", "steps"};
    default: return {};
  }
  keys.insert(keys.end(), sampled.begin(), sampled.end());
  return keys;
}

LedgerEntry build_extended_entry(const RawSpec& raw, MechanismKind kind, std::optional<double> substitute) {
  const Values v(raw, substitute);
  LedgerEntry e;
  e.mechanism.kind = kind;
  Mechanism& m = e.mechanism;
  ExtendedParameters& x = m.x;
  for (const char* list_key : {"sens", "probs", "run"})
    if (v.has(list_key) && v.text(list_key) == "?") fail(raw, std::string("'") + list_key + "' cannot be calibrated");
  switch (kind) {
    case MechanismKind::rr: {
      if (v.has("eps")) fail(raw, "give either eps, or p and k (dp_accounting's form), not both");
      // p is the probability of a uniformly random output: a larger p is more private, so it is rounded down.
      x.p = v.decimal("p").down;
      if (!(x.p > 0 && x.p <= 1)) v.range_error("p", "(0, 1]");
      x.k = v.count("k", 2);
      // eps = log(1 + k (1 - p)/p), the largest ratio of output probabilities, rounded up (for the accountants
      // that only use the eps-DP guarantee).
      const Interval pe = exact(x.p);
      m.eps = hi_up(log1p(exact_int(x.k) * (1 - pe) / pe));
      if (m.eps == 0) m.eps = std::numeric_limits<double>::denorm_min();
      sampling_modifiers(v, e);
      break;
    }
    case MechanismKind::discrete_gaussian:
      m.sigma = v.positive_down("sigma");
      if (v.has("sens")) m.sens = v.positive_up("sens");
      if (v.has("dim")) x.dim = v.count("dim", 1);
      sampling_modifiers(v, e);
      break;
    case MechanismKind::discrete_laplace:
      // A larger a is less noise (pmf proportional to e^{-a|x|}): rounded up, like eps (eps = a sens).
      x.a = v.positive_up("a");
      if (v.has("sens")) m.sens = static_cast<double>(v.count("sens", 1));
      sampling_modifiers(v, e);
      break;
    case MechanismKind::zcdp:
      x.rho = v.positive_up("rho");
      if (v.has("xi")) x.xi = v.nonnegative_up("xi");
      sampling_modifiers(v, e);
      break;
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip:
      m.eps = v.positive_up("eps");
      sampling_modifiers(v, e);
      break;
    case MechanismKind::tree:
      m.sigma = v.positive_down("sigma");
      if (v.has("sens")) m.sens = v.positive_up("sens");
      x.leaves = v.count("leaves", 1);
      break;
    case MechanismKind::mixture: {
      m.sigma = v.positive_down("sigma");
      const auto cs = bracket_list(v, "sens", ','), ps = bracket_list(v, "probs", ',');
      if (cs.size() != ps.size())
        fail(raw, "sens has " + std::to_string(cs.size()) + " values and probs " + std::to_string(ps.size()) +
                      ": one probability per sensitivity");
      if (cs.size() > 1000) fail(raw, "more than 1000 sensitivities");
      Interval sum = exact(0.0);
      std::vector<double> probs;
      for (std::size_t i = 0; i < cs.size(); ++i) {
        const DecimalValue c = v.decimal_of("sens", cs[i]), p = v.decimal_of("probs", ps[i]);
        if (!(c.nearest >= 0) || c.up == kInf) fail(raw, "sens value " + cs[i] + " is out of range: allowed [0, inf)");
        if (!(p.nearest >= 0 && p.nearest <= 1)) fail(raw, "probs value " + ps[i] + " is out of range: allowed [0, 1]");
        sum += p.exact;
        if (p.nearest == 0) continue;  // no mass there
        x.sensitivities.push_back(c.up);
        probs.push_back(p.nearest);
      }
      // The probabilities must sum to 1 (to 1e-9, as dp_accounting checks); they are used divided by their sum,
      // each within 2 ulps of the exact share (docs/mechanisms.md).
      if (!(hi(abs(sum - 1)) <= Real(1e-9)))
        fail(raw, "probs sum to " + format_nearest(mid(sum)) + ": they must sum to 1");
      const Interval total = [&] {
        Interval s = exact(0.0);
        for (double p : probs) s += exact(p);
        return s;
      }();
      for (double p : probs) x.probabilities.push_back(mid_double(exact(p) / total));
      if (std::none_of(x.sensitivities.begin(), x.sensitivities.end(), [](double c) { return c > 0; }))
        fail(raw, "at least one sensitivity with a positive probability must be positive");
      break;
    }
    case MechanismKind::truncated_gaussian:
      m.sigma = v.positive_down("sigma");
      if (v.has("sens")) m.sens = v.positive_up("sens");
      x.q = v.decimal("q").up;
      if (!(x.q > 0 && x.q <= 1)) v.range_error("q", "(0, 1]");
      x.batch = v.count("batch_size", 1);
      x.n = v.count("dataset_size", 1);
      // The weight of the truncated case sums binomial terms over ~15 standard deviations of Bin(N - 1, q).
      if (x.n > 1000000000) fail(raw, "dataset_size=" + v.text("dataset_size") + " is out of range: allowed [1, 1e9]");
      break;
    case MechanismKind::wr_gaussian:
      m.sigma = v.positive_down("sigma");
      if (v.has("sens")) m.sens = v.positive_up("sens");
      x.batch = v.count("batch_size", 1);
      x.n = v.count("dataset_size", 1);
      if (x.batch > 1000000) fail(raw, "batch_size=" + v.text("batch_size") + " is out of range: allowed [1, 1e6]");
      break;
    case MechanismKind::select: {
      x.mean = v.decimal("mean").up;
      if (!(v.decimal("mean").nearest >= 1) || x.mean == kInf) v.range_error("mean", "[1, inf)");
      const std::string shape = trim(v.text("shape"));
      if (shape == "inf" || shape == "infinity") {
        x.shape = kInf;
      } else {
        x.shape = v.decimal("shape").nearest;
        if (!(x.shape >= 0)) v.range_error("shape", "[0, inf] (0 logarithmic, 1 geometric, inf Poisson)");
      }
      if (select_depth >= kMaxSelectDepth) fail(raw, "select nested more than " + std::to_string(kMaxSelectDepth) + " deep");
      auto run = std::make_shared<std::vector<LedgerEntry>>();
      ++select_depth;
      try {
        for (const auto& spec : bracket_list(v, "run", ';')) run->push_back(parse_entry(spec));
      } catch (...) {
        --select_depth;
        throw;
      }
      --select_depth;
      x.run = run;
      break;
    }
    case MechanismKind::shuffle:
      m.eps = v.positive_up("eps0");
      x.n = v.count("n", 1);
      break;
    default: throw std::logic_error("internal: build_extended_entry of a classic kind");
  }
  steps_modifier(v, e);
  e.typed_without_other_ends = v.inexact();
  return e;
}

void validate_extended_entry(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  const ExtendedParameters& x = m.x;
  auto check = [&](bool ok, const std::string& field, double value, const char* range) {
    if (!ok)
      throw InputError("mechanism " + to_string(m.kind) + ": " + field + "=" + format_input(value) +
                       " is out of range: allowed " + range);
  };
  auto positive = [&](const char* field, double v) { check(v > 0 && v < kInf, field, v, "(0, inf)"); };
  switch (m.kind) {
    case MechanismKind::rr:
      check(x.p > 0 && x.p <= 1, "p", x.p, "(0, 1]");
      check(x.k >= 2, "k", static_cast<double>(x.k), "integers >= 2");
      check(m.eps >= 0 && m.eps < kInf, "eps", m.eps, "[0, inf)");
      break;
    case MechanismKind::discrete_gaussian:
      positive("sigma", m.sigma);
      check(x.dim >= 0, "dim", static_cast<double>(x.dim), "integers >= 1 (0: unknown)");
      break;
    case MechanismKind::discrete_laplace:
      positive("a", x.a);
      check(m.sens >= 1 && m.sens == std::floor(m.sens) && m.sens <= 1e15, "sens", m.sens, "integers in [1, 1e15]");
      break;
    case MechanismKind::zcdp:
      positive("rho", x.rho);
      check(x.xi >= 0 && x.xi < kInf, "xi", x.xi, "[0, inf)");
      break;
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip: positive("eps", m.eps); break;
    case MechanismKind::tree:
      positive("sigma", m.sigma);
      check(x.leaves >= 1 && x.leaves <= 1000000000000000, "leaves", static_cast<double>(x.leaves), "[1, 1e15]");
      break;
    case MechanismKind::mixture: {
      positive("sigma", m.sigma);
      check(!x.sensitivities.empty() && x.sensitivities.size() == x.probabilities.size() && x.sensitivities.size() <= 1000,
            "sens", static_cast<double>(x.sensitivities.size()), "1 to 1000 values, one per probability");
      double total = 0;
      bool positive_sens = false;
      for (std::size_t i = 0; i < x.sensitivities.size(); ++i) {
        check(x.sensitivities[i] >= 0 && x.sensitivities[i] < kInf, "sens", x.sensitivities[i], "[0, inf)");
        check(x.probabilities[i] > 0 && x.probabilities[i] <= 1, "probs", x.probabilities[i], "(0, 1]");
        total += x.probabilities[i];
        positive_sens = positive_sens || x.sensitivities[i] > 0;
      }
      check(std::abs(total - 1) <= 1e-12, "sum of probs", total, "1");
      check(positive_sens, "largest sens", 0, "(0, inf)");
      break;
    }
    case MechanismKind::truncated_gaussian:
      positive("sigma", m.sigma);
      check(x.q > 0 && x.q <= 1, "q", x.q, "(0, 1]");
      check(x.batch >= 1, "batch_size", static_cast<double>(x.batch), "integers >= 1");
      check(x.n >= 1 && x.n <= 1000000000, "dataset_size", static_cast<double>(x.n), "[1, 1e9]");
      break;
    case MechanismKind::wr_gaussian:
      positive("sigma", m.sigma);
      check(x.batch >= 1 && x.batch <= 1000000, "batch_size", static_cast<double>(x.batch), "[1, 1e6]");
      check(x.n >= 1 && x.n <= 1000000000000000, "dataset_size", static_cast<double>(x.n), "[1, 1e15]");
      break;
    case MechanismKind::select:
      check(x.mean >= 1 && x.mean < kInf, "mean", x.mean, "[1, inf)");
      check(x.shape >= 0, "shape", x.shape, "[0, inf]");
      check(x.run && !x.run->empty(), "run", 0, "a non-empty ledger");
      for (const auto& inner : *x.run) validate_entry(inner);
      break;
    case MechanismKind::shuffle:
      positive("eps0", m.eps);
      check(x.n >= 1 && x.n <= 1000000000000000, "n", static_cast<double>(x.n), "[1, 1e15]");
      break;
    default: break;
  }
}

std::string extended_spec(const LedgerEntry& e) {
  const Mechanism& m = e.mechanism;
  const ExtendedParameters& x = m.x;
  std::string s = to_string(m.kind) + ":";
  bool sampled_keys = true;
  switch (m.kind) {
    case MechanismKind::rr: s += "p=" + format_input(x.p) + ",k=" + std::to_string(x.k); break;
    case MechanismKind::discrete_gaussian:
      s += "sigma=" + format_input(m.sigma) + ",sens=" + format_input(m.sens);
      if (x.dim > 0) s += ",dim=" + std::to_string(x.dim);
      break;
    case MechanismKind::discrete_laplace: s += "a=" + format_input(x.a) + ",sens=" + format_input(m.sens); break;
    case MechanismKind::zcdp: s += "rho=" + format_guarantee(x.rho) + ",xi=" + format_guarantee(x.xi); break;
    case MechanismKind::exponential:
    case MechanismKind::permute_and_flip: s += "eps=" + format_guarantee(m.eps); break;
    case MechanismKind::tree:
      s += "sigma=" + format_input(m.sigma) + ",sens=" + format_input(m.sens) + ",leaves=" + std::to_string(x.leaves);
      sampled_keys = false;
      break;
    case MechanismKind::mixture:
      s += "sigma=" + format_input(m.sigma) + ",sens=" + join(x.sensitivities) + ",probs=" + join(x.probabilities);
      sampled_keys = false;
      break;
    case MechanismKind::truncated_gaussian:
      s += "sigma=" + format_input(m.sigma) + ",sens=" + format_input(m.sens) + ",q=" + format_input(x.q) +
           ",batch_size=" + std::to_string(x.batch) + ",dataset_size=" + std::to_string(x.n);
      sampled_keys = false;
      break;
    case MechanismKind::wr_gaussian:
      s += "sigma=" + format_input(m.sigma) + ",sens=" + format_input(m.sens) + ",batch_size=" + std::to_string(x.batch) +
           ",dataset_size=" + std::to_string(x.n);
      sampled_keys = false;
      break;
    case MechanismKind::select: {
      s += "mean=" + format_input(x.mean) + ",shape=" + (std::isinf(x.shape) ? std::string("inf") : format_input(x.shape)) +
           ",run=[";
      for (std::size_t i = 0; x.run && i < x.run->size(); ++i) s += (i ? ";" : "") + to_spec((*x.run)[i]);
      s += "]";
      sampled_keys = false;
      break;
    }
    case MechanismKind::shuffle:
      s += "eps0=" + format_guarantee(m.eps) + ",n=" + std::to_string(x.n);
      sampled_keys = false;
      break;
    default: throw std::logic_error("internal: extended_spec of a classic kind");
  }
  if (e.steps != 1) s += ",steps=" + std::to_string(e.steps);
  if (sampled_keys && e.subsampled())
    s += ",q=" + format_input(e.q) + sampling_suffix(e.sampling);
  return s;
}

}  // namespace dpl
