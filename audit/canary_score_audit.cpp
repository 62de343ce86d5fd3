// SPDX-License-Identifier: Apache-2.0
#include "audit/canary_score_audit.h"

#include "accounting/errors.h"
#include "accounting/mechanisms/analytic_gaussian.h"
#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"
#include "algorithms/rng/portable_rng.h"
#include "audit/clopper_pearson.h"
#include "audit/one_run_bound.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dpl::audit {

CanaryMethod parse_canary_method(const std::string& s) {
  if (s == "one-run") return CanaryMethod::one_run;
  if (s == "one-run-fdp") return CanaryMethod::one_run_fdp;
  if (s == "clopper-pearson") return CanaryMethod::clopper_pearson;
  if (s == "gdp") return CanaryMethod::gdp;
  throw InputError("--method=" + s + " is not a method: allowed one-run, one-run-fdp, clopper-pearson, gdp");
}

std::string to_string(CanaryMethod m) {
  switch (m) {
    case CanaryMethod::one_run: return "one-run";
    case CanaryMethod::one_run_fdp: return "one-run-fdp";
    case CanaryMethod::clopper_pearson: return "clopper-pearson";
    case CanaryMethod::gdp: return "gdp";
  }
  return "?";
}

namespace {

// The guess sets "score >= t" for every distinct score t, highest first: (t, guesses, included among them).
struct Threshold {
  double t;
  std::uint64_t k, tp;
};

struct Sorted {
  std::vector<CanaryScore> by_score;  // descending score
  std::vector<Threshold> thresholds;  // one per distinct score
  std::uint64_t in = 0, out = 0;
};

Sorted sort_scores(std::vector<CanaryScore> s) {
  Sorted r;
  std::stable_sort(s.begin(), s.end(), [](const CanaryScore& a, const CanaryScore& b) { return a.score > b.score; });
  std::uint64_t k = 0, tp = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ++k;
    tp += s[i].included;
    if (i + 1 == s.size() || s[i + 1].score != s[i].score) r.thresholds.push_back({s[i].score, k, tp});
  }
  for (const auto& c : s) (c.included ? r.in : r.out) += 1;
  r.by_score = std::move(s);
  return r;
}

// One-sided event {score >= t}: eps lower bound log(TPR_lb - delta) - log(FPR_ub) (Kairouz, Oh and Viswanath 2015,
// as used by Jagielski, Ullman and Oprea 2020), each rate bounded at significance/2.
struct EventBound {
  double tpr_lower, fpr_upper, eps, mu;
};
EventBound event_bound(std::uint64_t tp, std::uint64_t n_in, std::uint64_t fp, std::uint64_t n_out, double delta,
                       double significance) {
  EventBound b;
  b.tpr_lower = 1 - clopper_pearson_upper(n_in - tp, n_in, significance / 2);  // FNR upper bound
  b.fpr_upper = clopper_pearson_upper(fp, n_out, significance / 2);
  b.eps = b.tpr_lower > delta ? portable::binary64::log(b.tpr_lower - delta) - portable::binary64::log(b.fpr_upper) : -INFINITY;
  // Nasr et al. 2023 / Dong, Roth and Su: mu >= Phi^{-1}(1 - FPR) - Phi^{-1}(FNR), where both rates are below 1 - delta.
  const double fnr = 1 - b.tpr_lower;
  b.mu = std::max(b.fpr_upper, fnr) < 1 - delta && b.fpr_upper > 0 && fnr > 0
             ? portable::normal_quantile(1 - b.fpr_upper) - portable::normal_quantile(fnr)
             : (b.fpr_upper > 0 && fnr > 0 ? -INFINITY : INFINITY);
  return b;
}

// eps of mu-GDP at delta, a certified lower bound (Balle and Wang 2018 Thm 8 inverted; Dong, Roth and Su Cor. 2.13).
double gdp_epsilon_lower(double mu, double delta) {
  if (!(mu > 0)) return 0.0;
  if (!std::isfinite(mu)) return INFINITY;
  const EpsilonSearch s = analytic_gaussian_epsilon(exact(mu * (1 - 1e-12)), delta);
  return s.lower ? std::max(0.0, lo_down(*s.lower)) : 0.0;
}

double one_run_eps(CanaryMethod m, const OneRunGuesses& g, double delta, double sig, bool certified) {
  if (m == CanaryMethod::one_run_fdp) return one_run_fdp_epsilon(g, delta, sig);
  return certified ? one_run_epsilon_lower(g, delta, sig) : one_run_epsilon_estimate(g, delta, sig);
}

// The ROC convex hull (randomising between thresholds) from (0,0) to (1,1): the upper hull of the points.
std::vector<std::pair<double, double>> roc_hull(const Sorted& s) {
  std::vector<std::pair<double, double>> pts = {{0, 0}};
  for (const auto& t : s.thresholds)
    pts.push_back({double(t.k - t.tp) / double(s.out), double(t.tp) / double(s.in)});
  std::vector<std::pair<double, double>> h;
  for (const auto& p : pts) {
    while (h.size() >= 2) {
      const auto& a = h[h.size() - 2];
      const auto& b = h.back();
      // Drop b if it lies on or below the segment a -> p.
      const double cross = (b.first - a.first) * (p.second - a.second) - (b.second - a.second) * (p.first - a.first);
      if (cross >= 0) h.pop_back(); else break;
    }
    h.push_back(p);
  }
  return h;
}

double tpr_at(const std::vector<std::pair<double, double>>& h, double fpr) {
  for (std::size_t i = 1; i < h.size(); ++i)
    if (fpr <= h[i].first) {
      const double w = h[i].first - h[i - 1].first;
      return w > 0 ? h[i - 1].second + (fpr - h[i - 1].first) / w * (h[i].second - h[i - 1].second) : h[i].second;
    }
  return 1.0;
}

struct Choice {
  double eps = 0;
  std::size_t index = 0;  // into thresholds
  bool found = false;
};

// The thresholds of the guess sets "score >= the k-th highest score" for k = 1, 2, 5, 10, 20, 50, ... <= m (a family
// fixed before the scores are seen; a tie makes a set larger than k), without repeats.
std::vector<std::size_t> grid_candidates(const Sorted& s) {
  std::vector<std::size_t> out;
  const std::uint64_t m = s.in + s.out;
  for (std::uint64_t decade = 1; decade <= m; decade *= 10)
    for (std::uint64_t f : {1, 2, 5}) {
      const std::uint64_t k = f * decade;
      if (k > m) break;
      std::size_t i = 0;
      while (s.thresholds[i].k < k) ++i;
      if (out.empty() || out.back() != i) out.push_back(i);
    }
  return out;
}

// How many tests the grid holds for m canaries (the Bonferroni family, counted without the data).
std::uint64_t grid_size(std::uint64_t m) {
  std::uint64_t n = 0;
  for (std::uint64_t decade = 1; decade <= m; decade *= 10)
    for (std::uint64_t f : {1, 2, 5}) n += f * decade <= m;
  return n;
}

std::vector<std::size_t> all_candidates(const Sorted& s) {
  std::vector<std::size_t> out(s.thresholds.size());
  std::iota(out.begin(), out.end(), std::size_t{0});
  return out;
}

// Best of the candidate thresholds of `s` for the method at significance `sig` (binary64 screening for the one-run
// methods).
Choice choose(const Sorted& s, CanaryMethod method, double delta, double sig, const std::vector<std::size_t>& candidates) {
  Choice best;
  for (std::size_t i : candidates) {
    const auto& t = s.thresholds[i];
    const std::uint64_t fp = t.k - t.tp;
    double e;
    if (method == CanaryMethod::one_run || method == CanaryMethod::one_run_fdp) {
      const OneRunGuesses g{s.in + s.out, t.k, t.tp};
      // Rejection at a larger eps needs rejection at the best so far: skip the search when it fails there.
      if (best.found && method == CanaryMethod::one_run && one_run_p_value_estimate(g, best.eps, delta) > sig) continue;
      if (best.found && method == CanaryMethod::one_run_fdp && !one_run_fdp_rejects(g, best.eps, delta, sig)) continue;
      e = one_run_eps(method, g, delta, sig, false);
    } else {
      const EventBound b = event_bound(t.tp, s.in, fp, s.out, delta, sig);
      e = method == CanaryMethod::gdp ? b.mu : b.eps;
    }
    if (!best.found || e > best.eps) best = {e, i, true};
  }
  return best;
}

}  // namespace

CanaryAuditResult audit_canary_scores(const std::vector<CanaryScore>& scores, const CanaryAuditOptions& o) {
  if (!(o.confidence > 0 && o.confidence < 1))
    throw InputError("--confidence=" + std::to_string(o.confidence) + " is out of range: allowed (0, 1)");
  if (!(o.delta >= 0 && o.delta < 1)) throw InputError("--delta=" + std::to_string(o.delta) + " is out of range: allowed [0, 1)");
  if ((o.method == CanaryMethod::one_run_fdp || o.method == CanaryMethod::gdp) && !(o.delta > 0))
    throw InputError("--delta=0 is out of range for --method=" + to_string(o.method) + ": allowed (0, 1) (a Gaussian curve has no pure epsilon)");
  for (double f : o.fprs)
    if (!(f >= 0 && f <= 1)) throw InputError("--fpr=" + std::to_string(f) + " is out of range: allowed [0, 1]");
  if (o.guesses && o.method != CanaryMethod::one_run && o.method != CanaryMethod::one_run_fdp)
    throw InputError("--guesses applies to --method one-run and one-run-fdp; use --threshold for " + to_string(o.method));
  const Sorted all = sort_scores(scores);
  CanaryAuditResult r;
  r.method = o.method;
  r.canaries = scores.size();
  r.included = all.in;
  r.excluded = all.out;
  const double sig = 1 - o.confidence;
  const bool one_run = o.method == CanaryMethod::one_run || o.method == CanaryMethod::one_run_fdp;

  // The plain attack figures on every canary.
  r.roc = roc_hull(all);
  for (double f : o.fprs) r.tpr_at_fpr.push_back({f, tpr_at(r.roc, f)});
  r.auroc = 0;
  for (std::size_t i = 1; i < r.roc.size(); ++i)
    r.auroc += 0.5 * (r.roc[i].first - r.roc[i - 1].first) * (r.roc[i].second + r.roc[i - 1].second);

  // The data the bound is computed on, and its significance.
  Sorted audited = all;
  std::optional<std::size_t> fixed_index;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> explicit_guesses;
  if (o.guesses) {
    if (o.guesses->first + o.guesses->second > r.canaries || o.guesses->first + o.guesses->second == 0)
      throw InputError("--guesses=" + std::to_string(o.guesses->first) + "," + std::to_string(o.guesses->second) +
                       " is out of range: allowed k+ + k- in [1, " + std::to_string(r.canaries) + "] (the canaries)");
    explicit_guesses = o.guesses;
    r.choice = "fixed guesses";
    r.family = 1;
  } else if (o.threshold) {
    r.choice = "fixed threshold";
    r.family = 1;
  } else if (o.choice == ThresholdChoice::split) {
    // Half the canaries (a seeded random half) choose the threshold at the full significance; the other half is
    // audited at it: the choice never sees the audited half, so no correction is needed.
    algorithms::Rng rng(o.seed);
    const std::vector<int> perm = rng.permutation(static_cast<int>(scores.size()));
    std::vector<CanaryScore> a, b;
    for (std::size_t i = 0; i < perm.size(); ++i) (i < perm.size() / 2 ? a : b).push_back(scores[static_cast<std::size_t>(perm[i])]);
    const Sorted sa = sort_scores(a);
    audited = sort_scores(b);
    if (sa.in == 0 || sa.out == 0 || audited.in == 0 || audited.out == 0)
      throw InputError("--thresholds=split: a half has no included or no excluded canary; use bonferroni");
    const Choice c = choose(sa, o.method, o.delta, sig, all_candidates(sa));
    r.threshold = sa.thresholds[c.index].t;
    r.choice = "split (the threshold chosen on a random half, seed " + std::to_string(o.seed) + ")";
    r.family = 1;
  } else {
    // Bonferroni over every test that could be chosen: the guess sets / events "score >= the k-th highest score"
    // for k on the grid 1, 2, 5, 10, ... (a family fixed before the scores are seen).
    r.choice = "best of the guess counts 1, 2, 5, 10, 20, ... (Bonferroni)";
    r.family = grid_size(r.canaries);
  }
  r.significance_each = sig / static_cast<double>(r.family);
  r.audited = audited.in + audited.out;
  if (o.threshold || o.choice == ThresholdChoice::split) {
    if (o.threshold) r.threshold = *o.threshold;
    // The guess set "score >= threshold" on the audited canaries (possibly empty).
    std::size_t i = 0;
    while (i < audited.thresholds.size() && audited.thresholds[i].t >= r.threshold) ++i;
    if (i > 0) fixed_index = i - 1;
  }

  const double se = r.significance_each;
  if (one_run) {
    OneRunGuesses g{r.audited, 0, 0};
    if (explicit_guesses) {
      // The k+ highest and k- lowest scores (whole tie groups only: the largest such sets within k+ and k-).
      std::uint64_t kp = 0, tp = 0;
      for (const auto& t : audited.thresholds) {
        if (t.k > explicit_guesses->first) break;
        kp = t.k, tp = t.tp, r.threshold = t.t;
      }
      std::uint64_t km = 0, tn = 0, k = 0, in_seen = 0;
      const auto& v = audited.by_score;
      for (std::size_t i = v.size(); i-- > 0;) {
        ++k;
        in_seen += v[i].included;
        if (i > 0 && v[i - 1].score == v[i].score) continue;
        if (k > explicit_guesses->second || k + kp > v.size()) break;
        km = k, tn = k - in_seen;
      }
      r.k_plus = kp, r.k_minus = km;
      g.r = kp + km, g.v = tp + tn;
    } else if (fixed_index) {
      const auto& t = audited.thresholds[*fixed_index];
      r.k_plus = t.k, g.r = t.k, g.v = t.tp;
    } else if (!o.threshold && o.choice == ThresholdChoice::bonferroni) {
      const Choice c = choose(audited, o.method, o.delta, se, grid_candidates(audited));
      const auto& t = audited.thresholds[c.index];
      r.threshold = t.t, r.k_plus = t.k, g.r = t.k, g.v = t.tp;
    }
    r.guesses = g.r, r.correct = g.v;
    r.epsilon_lower = g.r > 0 ? one_run_eps(o.method, g, o.delta, se, true) : 0.0;
    // A perfect attack on these canaries: every included one guessed (and, with fixed guesses, as many as asked).
    const std::uint64_t best_r = explicit_guesses ? std::min(audited.in + audited.out, explicit_guesses->first + explicit_guesses->second)
                                                  : audited.in;
    r.detectable = one_run_eps(o.method, {r.audited, best_r, best_r}, o.delta, se, false);
  } else {
    std::optional<std::size_t> idx = fixed_index;
    if (!o.threshold && o.choice == ThresholdChoice::bonferroni)
      idx = choose(audited, o.method, o.delta, se, grid_candidates(audited)).index;
    const std::uint64_t tp = idx ? audited.thresholds[*idx].tp : 0, k = idx ? audited.thresholds[*idx].k : 0;
    if (idx) r.threshold = audited.thresholds[*idx].t;
    const EventBound b = event_bound(tp, audited.in, k - tp, audited.out, o.delta, se);
    r.true_positives = tp, r.false_positives = k - tp, r.tpr_lower = b.tpr_lower, r.fpr_upper = b.fpr_upper;
    const EventBound perfect = event_bound(audited.in, audited.in, 0, audited.out, o.delta, se);
    if (o.method == CanaryMethod::gdp) {
      r.mu_lower = std::max(0.0, b.mu);
      r.epsilon_lower = gdp_epsilon_lower(*r.mu_lower, o.delta);
      r.detectable = gdp_epsilon_lower(perfect.mu, o.delta);
    } else {
      // Rounding allowance of the log in binary64 (a few ulps), subtracted from the lower bound.
      r.epsilon_lower = std::max(0.0, b.eps - 1e-12 * (1 + std::fabs(b.eps)));
      r.detectable = std::max(0.0, perfect.eps);
    }
  }
  if (o.claimed_epsilon) {
    r.verdict = r.epsilon_lower > *o.claimed_epsilon ? Verdict::violation
                : r.detectable > *o.claimed_epsilon  ? Verdict::pass
                                                      : Verdict::inconclusive;
  }
  return r;
}

}  // namespace dpl::audit
