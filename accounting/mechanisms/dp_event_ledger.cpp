// SPDX-License-Identifier: Apache-2.0
#include "accounting/mechanisms/dp_event_ledger.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/spec_text.h"
#include "accounting/numeric/decimal.h"
#include "accounting/numeric/interval.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace dpl {
namespace {

using Json = nlohmann::json;

using spec_text::fail;

// The smallest double >= x + (rounding error of a few ulps): a derived privacy parameter rounded so the bound
// can only grow.
double round_up(double x, int ulps = 4) {
  for (int i = 0; i < ulps; ++i) x = std::nextafter(x, std::numeric_limits<double>::infinity());
  return x;
}

double number_field(const Json& o, const std::string& field, const std::string& where, const std::string& cls) {
  if (!o.contains(field)) fail(where, cls + ": missing field '" + field + "'");
  const Json& v = o.at(field);
  if (!v.is_number()) fail(where, cls + ": field '" + field + "' must be a number, got " + v.dump());
  const double d = v.get<double>();
  if (!std::isfinite(d)) fail(where, cls + ": field '" + field + "' must be finite");
  return d;
}

// An optional field (absent or null: the default).
double number_field_or(const Json& o, const std::string& field, double def, const std::string& where,
                       const std::string& cls) {
  if (!o.contains(field) || o.at(field).is_null()) return def;
  return number_field(o, field, where, cls);
}

std::int64_t integer_field(const Json& o, const std::string& field, const std::string& where, const std::string& cls) {
  const double d = number_field(o, field, where, cls);
  if (!(d >= 0 && d == std::floor(d) && d <= 1e15))
    fail(where, cls + ": field '" + field + "' must be an integer in [0, 1e15], got " + format_input(d));
  return static_cast<std::int64_t>(d);
}

std::string class_of(const Json& o) {
  return o.is_object() && o.contains("class_name") && o.at("class_name").is_string() ? o.at("class_name").get<std::string>()
                                                                                    : "";
}

const Json& event_field(const Json& o, const std::string& field, const std::string& where, const std::string& cls) {
  if (!o.contains(field)) fail(where, cls + ": missing field '" + field + "'");
  return o.at(field);
}

[[noreturn]] void not_private(const std::string& where, const std::string& what) {
  fail(where, what + " is not private (dp_accounting reports an infinite epsilon); dpledger refuses such a ledger");
}

// Sum of count_i / sigma_i^2 over a tree of Gaussians (ComposedDpEvent / SelfComposedDpEvent of GaussianDpEvent):
// composing Gaussians on one sample is the Gaussian of noise multiplier (sum sigma_i^-2)^(-1/2) (Mironov, Talwar and
// Zhang 2019, Sec. 3; dp_accounting's effective noise multiplier). nullopt if the tree holds anything else.
std::optional<Interval> inverse_variance_sum(const Json& o, const std::string& where) {
  const std::string cls = class_of(o);
  if (cls == "GaussianDpEvent") {
    const double nm = number_field(o, "noise_multiplier", where, cls);
    if (nm == 0) not_private(where, "GaussianDpEvent with noise_multiplier 0");
    if (nm < 0) fail(where, cls + ": noise_multiplier must be >= 0");
    return 1 / (exact(nm) * exact(nm));
  }
  if (cls == "NoOpDpEvent") return exact(0.0);
  if (cls == "SelfComposedDpEvent") {
    const auto inner = inverse_variance_sum(event_field(o, "event", where, cls), where);
    if (!inner) return std::nullopt;
    return exact_int(integer_field(o, "count", where, cls)) * *inner;
  }
  if (cls == "ComposedDpEvent") {
    const Json& events = event_field(o, "events", where, cls);
    if (!events.is_array()) fail(where, cls + ": field 'events' must be an array");
    Interval s = exact(0.0);
    for (const Json& e : events) {
      const auto inner = inverse_variance_sum(e, where);
      if (!inner) return std::nullopt;
      s += *inner;
    }
    return s;
  }
  return std::nullopt;
}

// The noise multiplier of the Gaussian equivalent to a tree of Gaussians, rounded down (a larger bound); nullopt if
// the tree holds anything else, 0 if it holds no Gaussian.
std::optional<double> effective_noise_multiplier(const Json& o, const std::string& where) {
  const auto s = inverse_variance_sum(o, where);
  if (!s) return std::nullopt;
  if (hi(*s) == 0) return 0.0;
  return lo_down(1 / sqrt(*s));
}

std::string list_text(const Json& a, const std::string& where, const std::string& cls, const std::string& field) {
  if (!a.is_array()) fail(where, cls + ": field '" + field + "' must be an array of numbers");
  std::string s = "[";
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number() || !std::isfinite(a[i].get<double>()))
      fail(where, cls + ": field '" + field + "' must hold finite numbers, got " + a[i].dump());
    s += (i ? "," : "") + format_input(a[i].get<double>());
  }
  return s + "]";
}

class Walker {
 public:
  Walker(const std::string& where, std::vector<LedgerFileEntry>& out) : where_(where), out_(out) {}

  // `count`: the enclosing self-composition count; `sampling`: the ",q=...[,sampling=wor]" of an enclosing
  // PoissonSampledDpEvent / SampledWithoutReplacementDpEvent, empty if none.
  void walk(const Json& o, std::int64_t count, const std::string& sampling) {
    if (!o.is_object() || !o.contains("class_name") || !o.at("class_name").is_string())
      fail(where_, "a DpEvent must be an object with a \"class_name\" string, got " + o.dump().substr(0, 80));
    const std::string cls = o.at("class_name").get<std::string>();
    auto emit = [&](std::string spec, bool samplable = true) {
      if (count == 0) return;
      if (!samplable && !sampling.empty())
        fail(where_, cls + " inside a sampled event cannot be accounted by dpledger (it has its own sampling, or "
                           "no subsampled analysis); account it unsampled");
      if (count > 1) spec += ",steps=" + std::to_string(count);
      spec += sampling;
      out_.push_back(make_ledger_file_entry(spec, where_ + " (" + cls + ")"));
    };
    auto field = [&](const std::string& f) { return number_field(o, f, where_, cls); };
    if (cls == "NoOpDpEvent") return;
    if (cls == "NonPrivateDpEvent") not_private(where_, "NonPrivateDpEvent (a step without a privacy guarantee)");
    if (cls == "UnsupportedDpEvent")
      fail(where_, "UnsupportedDpEvent: an operation without a privacy description cannot be accounted");
    if (cls == "GaussianDpEvent") {
      const double nm = field("noise_multiplier");
      if (nm == 0) not_private(where_, "GaussianDpEvent with noise_multiplier 0");
      return emit("gaussian:sigma=" + format_input(nm));
    }
    if (cls == "LaplaceDpEvent") {
      const double nm = field("noise_multiplier");
      if (nm == 0) not_private(where_, "LaplaceDpEvent with noise_multiplier 0");
      return emit("laplace:b=" + format_input(nm));
    }
    if (cls == "DiscreteLaplaceDpEvent") {
      const double a = field("noise_parameter");
      const std::int64_t sens = integer_field(o, "sensitivity", where_, cls);
      if (sens == 0) return;  // the output does not depend on the record
      if (a == 0) not_private(where_, "DiscreteLaplaceDpEvent with noise_parameter 0");
      return emit("discrete_laplace:a=" + format_input(a) + ",sens=" + std::to_string(sens));
    }
    if (cls == "DiscreteGaussianDpEvent") {
      const double sigma = field("sigma"), sens = number_field_or(o, "sensitivity", 1.0, where_, cls);
      if (sens == 0) return;
      if (sigma == 0) not_private(where_, "DiscreteGaussianDpEvent with sigma 0");
      std::string spec = "discrete_gaussian:sigma=" + format_input(sigma) + ",sens=" + format_input(sens);
      if (o.contains("dimension") && !o.at("dimension").is_null())
        spec += ",dim=" + std::to_string(integer_field(o, "dimension", where_, cls));
      return emit(spec);
    }
    if (cls == "EpsilonDeltaDpEvent") {
      const double e = field("epsilon"), d = field("delta");
      if (e == 0 && d == 0) return;  // no privacy cost
      return emit("approx:eps=" + format_input(e) + ",delta=" + format_input(d));
    }
    if (cls == "RandomizedResponseDpEvent") {
      const double p = field("noise_parameter");
      const std::int64_t k = integer_field(o, "num_buckets", where_, cls);
      if (!(p >= 0 && p <= 1)) fail(where_, cls + ": noise_parameter must be in [0, 1], got " + format_input(p));
      if (k < 1) fail(where_, cls + ": num_buckets must be an integer >= 1");
      if (k == 1 || p == 1) return;  // the output ignores the input
      if (p == 0) not_private(where_, "RandomizedResponseDpEvent with noise_parameter 0");
      return emit("rr:p=" + format_input(p) + ",k=" + std::to_string(k));
    }
    if (cls == "ZCDpEvent") {
      const double rho = field("rho"), xi = number_field_or(o, "xi", 0.0, where_, cls);
      if (rho == 0 && xi == 0) return;
      return emit("zcdp:rho=" + format_input(rho) + ",xi=" + format_input(xi));
    }
    if (cls == "ExponentialMechanismDpEvent" || cls == "PermuteAndFlipDpEvent") {
      const double eps = field("epsilon");
      if (eps == 0) return;
      return emit((cls == "PermuteAndFlipDpEvent" ? "permute_and_flip:eps=" : "exponential:eps=") + format_input(eps));
    }
    if (cls == "SingleEpochTreeAggregationDpEvent") {
      const double nm = field("noise_multiplier");
      const Json& sc = event_field(o, "step_counts", where_, cls);
      std::int64_t leaves = 0;
      if (sc.is_array()) {
        if (sc.empty()) fail(where_, cls + ": step_counts must be a non-empty list or a number");
        for (std::size_t i = 0; i < sc.size(); ++i) {
          const Json item = {{"s", sc[i]}};
          leaves = std::max(leaves, integer_field(item, "s", where_, cls + " step_counts"));
        }
      } else {
        leaves = integer_field(o, "step_counts", where_, cls);
      }
      if (leaves == 0) return;  // no step, nothing released
      if (nm == 0) not_private(where_, "SingleEpochTreeAggregationDpEvent with noise_multiplier 0");
      // Each record is in one leaf of one tree: the tree with the most steps is the worst case.
      return emit("tree:sigma=" + format_input(nm) + ",leaves=" + std::to_string(leaves), false);
    }
    if (cls == "MixtureOfGaussiansDpEvent") {
      const double sd = field("standard_deviation");
      const Json& sens = event_field(o, "sensitivities", where_, cls);
      const Json& probs = event_field(o, "sampling_probs", where_, cls);
      const std::string st = list_text(sens, where_, cls, "sensitivities"), pt = list_text(probs, where_, cls, "sampling_probs");
      bool any_positive = false;
      for (const Json& c : sens) any_positive = any_positive || c.get<double>() != 0;
      if (!any_positive) return;  // every sensitivity 0: nothing depends on the record
      if (sd == 0) not_private(where_, "MixtureOfGaussiansDpEvent with standard_deviation 0");
      return emit("mixture:sigma=" + format_input(sd) + ",sens=" + st + ",probs=" + pt, false);
    }
    if (cls == "TruncatedSubsampledGaussianDpEvent") {
      const std::int64_t n = integer_field(o, "dataset_size", where_, cls);
      const double q = field("sampling_probability");
      const std::int64_t b = integer_field(o, "truncated_batch_size", where_, cls);
      const double nm = field("noise_multiplier");
      if (!(q >= 0 && q <= 1)) fail(where_, cls + ": sampling_probability must be in [0, 1], got " + format_input(q));
      if (q == 0 || b == 0 || n == 0) return;  // nothing is sampled
      if (nm == 0) not_private(where_, "TruncatedSubsampledGaussianDpEvent with noise_multiplier 0");
      return emit("truncated_gaussian:sigma=" + format_input(nm) + ",q=" + format_input(q) +
                      ",batch_size=" + std::to_string(b) + ",dataset_size=" + std::to_string(n),
                  false);
    }
    if (cls == "RepeatAndSelectDpEvent") {
      const double mean = field("mean");
      const Json& shape = event_field(o, "shape", where_, cls);
      std::string shape_text;
      if (shape.is_string() && (shape == "inf" || shape == "Infinity" || shape == "infinity")) {
        shape_text = "inf";
      } else {
        const double s = number_field(o, "shape", where_, cls);
        shape_text = format_input(s);
      }
      std::vector<LedgerFileEntry> run;
      Walker(where_ + " (RepeatAndSelectDpEvent run)", run).walk(event_field(o, "event", where_, cls), 1, "");
      if (run.empty()) return;  // the repeated run costs nothing
      std::string specs;
      for (const auto& r : run) specs += (specs.empty() ? "" : ";") + r.spec;
      return emit("select:mean=" + format_input(mean) + ",shape=" + shape_text + ",run=[" + specs + "]", false);
    }
    if (cls == "PoissonSampledDpEvent" || cls == "SampledWithoutReplacementDpEvent" ||
        cls == "SampledWithReplacementDpEvent") {
      if (!sampling.empty()) fail(where_, cls + " inside another sampled event is not supported");
      const Json& inner = event_field(o, "event", where_, cls);
      const std::string inner_cls = class_of(inner);
      if (cls == "SampledWithReplacementDpEvent") {
        const std::int64_t n = integer_field(o, "source_dataset_size", where_, cls);
        const std::int64_t m = integer_field(o, "sample_size", where_, cls);
        if (n < 1) fail(where_, cls + ": source_dataset_size must be >= 1");
        if (m == 0) return;
        const auto nm = effective_noise_multiplier(inner, where_);
        if (!nm)
          fail(where_, cls + " of " + inner_cls + " cannot be accounted by dpledger (sampling with replacement is "
                             "accounted for Gaussians, or compositions of Gaussians on the sample)");
        if (*nm == 0) return;
        return emit("wr_gaussian:sigma=" + format_input(*nm) + ",batch_size=" + std::to_string(m) +
                        ",dataset_size=" + std::to_string(n),
                    false);
      }
      double q = 0;
      std::string mode;
      if (cls == "PoissonSampledDpEvent") {
        q = field("sampling_probability");
        if (!(q >= 0 && q <= 1)) fail(where_, cls + ": sampling_probability must be in [0, 1], got " + format_input(q));
        // dpledger's own field: the guarantee is wanted for replace-one neighbours (the drop-in sets it).
        if (o.contains("neighboring_relation")) {
          const Json& r = o.at("neighboring_relation");
          if (!r.is_string() || (r != "ADD_OR_REMOVE_ONE" && r != "REPLACE_ONE"))
            fail(where_, cls + ": field 'neighboring_relation' must be \"ADD_OR_REMOVE_ONE\" or \"REPLACE_ONE\"");
          if (r == "REPLACE_ONE") {
            if (q == 1)
              fail(where_, cls + ": sampling_probability 1 under REPLACE_ONE is no sampling: account the event "
                                 "itself, whose values move by twice their bound when one is replaced");
            mode = ",sampling=poisson_replace_one";
          }
        }
      } else {
        const double n = field("source_dataset_size"), m = field("sample_size");
        if (!(n >= 1 && m >= 0 && m <= n)) fail(where_, cls + ": need 0 <= sample_size <= source_dataset_size");
        q = m / n;
        if (std::fma(q, n, -m) < 0) q = round_up(q, 1);  // q below m/n exactly: round up (a larger bound)
        mode = ",sampling=wor";
      }
      if (q == 0) return;  // nothing is sampled
      const std::string suffix = q == 1 ? std::string() : ",q=" + format_input(q) + mode;
      if (inner_cls == "SelfComposedDpEvent" || inner_cls == "ComposedDpEvent") {
        // Several mechanisms on one sample: accounted when they are Gaussians (one equivalent Gaussian).
        const auto nm = effective_noise_multiplier(inner, where_);
        if (!nm)
          fail(where_, cls + " of a " + inner_cls + " of other mechanisms than Gaussians (composition on one sample) "
                             "cannot be accounted by dpledger: sample each step (SelfComposedDpEvent of " + cls + ")");
        if (*nm == 0) return;
        if (count == 0) return;
        std::string spec = "gaussian:sigma=" + format_input(*nm);
        if (count > 1) spec += ",steps=" + std::to_string(count);
        out_.push_back(make_ledger_file_entry(spec + suffix, where_ + " (" + cls + " of " + inner_cls + ")"));
        return;
      }
      return walk(inner, count, suffix);
    }
    if (cls == "SelfComposedDpEvent") {
      const std::int64_t n = integer_field(o, "count", where_, cls);
      if (n != 0 && count > std::numeric_limits<std::int64_t>::max() / n) fail(where_, cls + ": total count overflows");
      return walk(event_field(o, "event", where_, cls), count * n, sampling);
    }
    if (cls == "ComposedDpEvent") {
      const Json& events = event_field(o, "events", where_, cls);
      if (!events.is_array()) fail(where_, cls + ": missing array field 'events'");
      for (const Json& e : events) walk(e, count, sampling);
      return;
    }
    fail(where_, "DpEvent class " + cls + " is not one of dp_accounting 0.6's event classes (docs/ledger_files.md)");
  }

 private:
  std::string where_;
  std::vector<LedgerFileEntry>& out_;
};

}  // namespace

void dp_event_entries(const nlohmann::json& event, const std::string& where, std::vector<LedgerFileEntry>& out) {
  Walker(where, out).walk(event, 1, "");
}

}  // namespace dpl
