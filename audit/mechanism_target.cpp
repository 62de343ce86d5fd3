// SPDX-License-Identifier: Apache-2.0
#include "audit/mechanism_target.h"

#include <algorithm>
#include <functional>

#include "accounting/composition/compose.h"
#include "accounting/errors.h"
#include "accounting/numeric/decimal.h"

#include <cmath>

namespace dpl::audit {

namespace {

struct SamplerContext {
  bool laplace;
  double noise, sens, start, inv_step;
  std::size_t count;
};

// The bin of x on the uniform grid: the number of grid points strictly below x, i.e. ceil((x - start) / step)
// clamped to [0, count] (the same event structure as bin_of, without a search).
inline std::size_t grid_bin(const SamplerContext& c, double x) {
  const double u = std::ceil((x - c.start) * c.inv_step);
  if (!(u > 0)) return 0;
  if (u >= static_cast<double>(c.count)) return c.count;
  return static_cast<std::size_t>(u);
}

void sample_runs(const void* ctx, algorithms::Rng& rng, std::size_t* bd, std::size_t* bp, std::size_t n) {
  const auto& c = *static_cast<const SamplerContext*>(ctx);
  if (c.laplace) {
    for (std::size_t r = 0; r < n; ++r) {
      bd[r] = grid_bin(c, rng.laplace_scale(c.noise));
      bp[r] = grid_bin(c, c.sens + rng.laplace_scale(c.noise));
    }
  } else {
    for (std::size_t r = 0; r < n; ++r) {
      bd[r] = grid_bin(c, c.noise * rng.gaussian());
      bp[r] = grid_bin(c, c.sens + c.noise * rng.gaussian());
    }
  }
}

}  // namespace

std::vector<double> MechanismTarget::thresholds() const {
  std::vector<double> t(grid_count);
  for (std::size_t j = 0; j < grid_count; ++j) t[j] = grid_start + static_cast<double>(j) * grid_step;
  return t;
}

MechanismTarget make_mechanism_target(const std::string& spec, const std::map<std::string, std::string>& sets,
                                      std::optional<double> delta) {
  const LedgerEntry e = parse_entry(spec);
  MechanismTarget t;
  t.spec = spec;
  if (e.mechanism.kind == MechanismKind::laplace) {
    t.laplace = true;
    t.scale = e.mechanism.b;
  } else if (e.mechanism.kind == MechanismKind::gaussian) {
    t.laplace = false;
    t.scale = e.mechanism.sigma;
  } else {
    throw NotApplicable("audit TARGET=" + spec + ": black-box audits support laplace:b=.. and gaussian:sigma=.. "
                        "(and the run algorithms with a known density)");
  }
  if (e.steps != 1 || e.subsampled())
    throw NotApplicable("audit TARGET=" + spec + ": only a single release is audited (steps=1, no q)");
  t.sens = e.mechanism.sens;
  if (t.sens / t.scale > 1000)
    throw InputError("audit TARGET=" + spec + ": sens/scale=" + format_input(t.sens / t.scale) +
                     " is out of range for an audit: allowed <= 1000 (no sample size could resolve it)");
  // The threshold grid below has about 256 scale/sens points (step sens/16 over [-8 scale, sens + 8 scale]): at
  // most ~256,000, so that its counts (per thread) and the scan of its events stay small.
  if (t.scale / t.sens > 1000)
    throw InputError("audit TARGET=" + spec + ": scale/sens=" + format_input(t.scale / t.sens) +
                     " is out of range for an audit: allowed <= 1000 (the threshold grid would have about " +
                     format_input(std::round(256 * t.scale / t.sens)) + " points)");
  for (const auto& [key, value] : sets) {
    if (key != "actual_noise_factor")
      throw InputError("--set " + key + "=" + value + ": unknown key for a mechanism target: allowed actual_noise_factor");
    std::size_t used = 0;
    double f = 0;
    try {
      f = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || !(f > 0) || !std::isfinite(f))
      throw InputError("--set actual_noise_factor=" + value + " is out of range: allowed (0, inf)");
    t.noise_factor = f;
  }
  const double d = delta.value_or(t.laplace ? 0.0 : 1e-5);
  if (!(d >= 0 && d < 1)) throw InputError("--delta=" + format_input(d) + " is out of range: allowed [0, 1)");
  if (!t.laplace && d == 0)
    throw InputError("--delta=0 is out of range for a Gaussian target: allowed (0, 1)");
  const AccountingResult acc = compose(Ledger{e}, Target::for_delta(d), AccountantKind::automatic);
  t.claim.epsilon = hi_up(acc.epsilon);
  t.claim.delta = d;
  t.accountant = acc.accountant + ": " + acc.note;
  // Gaussian: mu = sens / sigma (Dong, Roth, Su 2022, Thm 2.7), rounded up.
  if (!t.laplace) {
    const double q = t.sens / t.scale;
    t.claim.mu = std::fma(q, t.scale, -t.sens) < 0 ? std::nextafter(q, INFINITY) : q;  // q * scale >= sens
    std::vector<double> deltas = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
    if (std::find(deltas.begin(), deltas.end(), d) == deltas.end()) deltas.push_back(d);
    std::sort(deltas.begin(), deltas.end(), std::greater<>());
    for (double dd : deltas)
      t.curve.emplace_back(dd, dd == d ? t.claim.epsilon
                                       : hi_up(compose(Ledger{e}, Target::for_delta(dd), AccountantKind::automatic).epsilon));
  }
  // Grid: step min(sens, scale)/16, a multiple of the step at 0 and at sens (where the Laplace ratio is exactly
  // e^eps), covering [-8 scale, sens + 8 scale] (the factor-1/2 twin stays inside).
  const double m = std::ceil(16 * t.sens / std::min(t.sens, t.scale));
  t.grid_step = t.sens / m;
  const double below = std::ceil(8 * t.scale / t.grid_step);
  t.grid_start = -below * t.grid_step;
  t.grid_count = static_cast<std::size_t>(below + m + below + 1);
  return t;
}

MechanismAudit audit_mechanism(const MechanismTarget& t, const ThresholdCounts& counts, double confidence,
                               double tolerance) {
  const double each = t.curve.empty() ? confidence : 1 - (1 - confidence) / 2;
  MechanismAudit a;
  a.result = threshold_test(counts, t.claim, each, tolerance);
  a.result.confidence = confidence;
  if (!t.curve.empty()) {
    a.curve = privacy_curve_audit(counts, t.curve, each);
    if (a.curve->verdict == Verdict::violation) a.result.verdict = Verdict::violation;
  }
  return a;
}

ThresholdCounts sample_mechanism(const MechanismTarget& t, const SamplingPlan& plan,
                                 const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  const SamplerContext c{t.laplace, t.noise_factor * t.scale, t.sens, t.grid_start, 1 / t.grid_step, t.grid_count};
  return sample_blocks(t.thresholds(), plan, FastSampler{&sample_runs, &c}, progress);
}

}  // namespace dpl::audit
