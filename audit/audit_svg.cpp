// SPDX-License-Identifier: Apache-2.0
#include "audit/audit_svg.h"

#include "accounting/numeric/portable_distributions.h"
#include "accounting/numeric/portable_math.h"
#include "audit/one_run_bound.h"
#include "plotting/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dpl::audit {

namespace {

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", x);
  return b;
}

// A histogram's outline as a step line: (e_0, 0), (e_0, h_0), (e_1, h_0), (e_1, h_1), ..., (e_n, 0).
plotting::PlotSeries steps(const std::string& name, const std::vector<double>& edges, const std::vector<double>& heights) {
  plotting::PlotSeries s;
  s.name = name;
  s.x.push_back(edges.front());
  s.y.push_back(0);
  for (std::size_t b = 0; b < heights.size(); ++b) {
    s.x.insert(s.x.end(), {edges[b], edges[b + 1]});
    s.y.insert(s.y.end(), {heights[b], heights[b]});
  }
  s.x.push_back(edges.back());
  s.y.push_back(0);
  return s;
}

plotting::PlotSeries marker(const std::string& name, double x, double top) {
  plotting::PlotSeries s;
  s.name = name;
  s.x = {x, x};
  s.y = {0, top};
  s.dashed = true;
  return s;
}

}  // namespace

std::string threshold_audit_svg(const ThresholdCounts& c, const AuditResult& r, const std::string& title) {
  const auto& t = c.thresholds;
  plotting::Plot p;
  const double lower = r.unit == "mu" ? *r.mu_lower : r.epsilon_lower;
  const double claimed = r.unit == "mu" ? *r.mu_claimed : r.epsilon_claimed;
  p.title = title + ": " + r.unit + " lower " + num(lower) + ", claimed " + num(claimed) + ", " + to_string(r.verdict);
  p.x.label = "output";
  p.y.label = "density (estimation half)";
  // Density per unit of output in each interior bin (t_{j-1}, t_j], estimation half.
  double ymax = 0;
  const char* names[2] = {"outputs on D", "outputs on D'"};
  for (int side = 0; side < 2; ++side) {
    const double n = static_cast<double>(c.total(kEstimation, Side(side)));
    std::vector<double> dens;
    for (std::size_t j = 1; j < t.size(); ++j) {
      dens.push_back(c.counts[kEstimation][side][j] / n / (t[j] - t[j - 1]));
      ymax = std::max(ymax, dens.back());
    }
    if (t.size() >= 2) p.series.push_back(steps(names[side], t, dens));
  }
  p.series.push_back(marker(std::string("event: x ") + (r.event.left_tail ? "<= " : "> ") + num(r.event.threshold),
                            r.event.threshold, ymax > 0 ? ymax : 1));
  return plotting::render_svg(p);
}

std::string whitebox_audit_svg(const WhiteBoxResult& w) {
  plotting::Plot p;
  p.title = "loss per run: " + w.algorithm + ", " + std::to_string(w.losses.size()) + " runs, " + to_string(w.verdict) +
            (w.realised_gamma ? ", realised gamma " + num(*w.realised_gamma) : "") +
            (w.mean_interval_normal ? " (accountant at delta " + num(w.claim_delta) + ")" : "");
  p.x.label = "privacy loss of the run";
  p.y.label = "runs";
  p.y.integer = true;  // counts
  std::vector<double> counts(w.hist_counts.begin(), w.hist_counts.end());
  const double top = std::max(1.0, *std::max_element(counts.begin(), counts.end()));
  p.series.push_back(steps("runs per bin", w.hist_edges, counts));
  p.series.push_back(marker("mean " + num(w.mean_loss), w.mean_loss, top));
  p.series.push_back(marker("max " + num(w.max_loss), w.max_loss, top));
  if (std::isfinite(w.epsilon_claimed)) p.series.push_back(marker("claimed (max) " + num(w.epsilon_claimed), w.epsilon_claimed, top));
  else if (std::isfinite(w.epsilon_accountant))
    p.series.push_back(marker("accountant " + num(w.epsilon_accountant), w.epsilon_accountant, top));
  return plotting::render_svg(p);
}

std::string algorithm_audit_svg(const AlgorithmAuditResult& w) {
  plotting::Plot p;
  // The verdict and the test that made it; the title's width sets the picture's (never cut).
  const bool use_d = w.tests != AuditTests::noise, use_n = w.tests != AuditTests::distinguishing;
  const bool by_d = use_d && w.distinguishing == Verdict::violation, by_n = use_n && w.noise == Verdict::violation;
  std::string fired = by_d && by_n ? " (distinguishing test and noise check)" : by_d ? " (distinguishing test)"
                                                                          : by_n ? " (white-box noise check only)"
                                                                                 : "";
  p.title = "audit of " + w.algorithm +
            (w.faults.empty() ? "" : ", injected " + w.faults) +
            (w.noise_factor != 1 ? ", noise x" + num(w.noise_factor) : "") + ": " + to_string(w.verdict) + fired +
            "; epsilon lower " + num(w.epsilon_lower) + " vs claimed " + num(w.claim_epsilon);
  p.width = std::max(p.width, static_cast<int>(std::ceil(140 + 8.6 * static_cast<double>(p.title.size()))));
  // The histograms of the statistic the chosen event reads.
  const std::vector<double>& on_d = w.on_increments ? w.records.increments_d : w.records.stat_d;
  const std::vector<double>& on_dprime = w.on_increments ? w.records.increments_dprime : w.records.stat_dprime;
  p.x.label = w.on_increments ? "increments statistic of a run (successive releases' residuals)"
                              : "privacy-loss statistic of a run (claimed density)";
  p.y.label = "runs per bin";
  p.y.integer = true;  // counts of runs
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : {&on_d, &on_dprime})
    for (double x : *v) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!(hi > lo)) hi = lo + 1;
  const int bins = 40;
  std::vector<double> edges;
  for (int b = 0; b <= bins; ++b) edges.push_back(lo + (hi - lo) * b / bins);
  double top = 0;
  const char* names[2] = {"on D (canary in)", "on D' (canary changed or out)"};
  int side = 0;
  for (const auto* v : {&on_d, &on_dprime}) {
    std::vector<double> h(bins, 0);
    for (double x : *v) h[std::clamp(static_cast<int>((x - lo) / (hi - lo) * bins), 0, bins - 1)] += 1;
    for (double c : h) top = std::max(top, c);
    p.series.push_back(steps(names[side++], edges, h));
  }
  // The event chosen by the distinguishing test, labelled with its own result (a passing event is never shown as
  // the violation).
  p.series.push_back(marker(std::string("event ") + (w.d_first ? "> " : "<= ") + num(w.threshold) + ": " +
                                (w.distinguishing == Verdict::violation ? "violation" : "within the claim"),
                            w.threshold, top));
  return plotting::render_svg(p);
}

std::string canary_audit_svg(const CanaryAuditResult& r, double delta, std::optional<double> claimed,
                             const std::string& title) {
  plotting::Plot p;
  p.title = title + ": " + to_string(r.method) + " epsilon lower " + num(r.epsilon_lower) +
            (r.verdict ? ", " + to_string(*r.verdict) : "") + ", AUROC " + num(r.auroc);
  p.x.label = "false positive rate (log scale)";
  p.x.log = true;
  p.y.label = "true positive rate";
  const double lo = 0.5 / static_cast<double>(std::max<std::uint64_t>(1, r.excluded));
  plotting::PlotSeries roc;
  roc.name = "attack (ROC hull)";
  double t0 = 0;  // the hull's value at the left edge
  for (std::size_t i = 1; i < r.roc.size(); ++i)
    if (r.roc[i].first >= lo) {
      const double w = r.roc[i].first - r.roc[i - 1].first;
      t0 = w > 0 ? r.roc[i - 1].second + (lo - r.roc[i - 1].first) / w * (r.roc[i].second - r.roc[i - 1].second) : r.roc[i].second;
      break;
    }
  roc.x.push_back(lo), roc.y.push_back(t0);
  for (const auto& [f, t] : r.roc)
    if (f > lo) roc.x.push_back(f), roc.y.push_back(t);
  p.series.push_back(roc);
  // The largest TPR a claim allows at each FPR: e^eps FPR + delta, or for the Gaussian-shaped methods the Gaussian
  // trade-off curve Phi(Phi^{-1}(FPR) + mu) (Dong, Roth and Su).
  const bool gaussian = r.method == CanaryMethod::gdp || r.method == CanaryMethod::one_run_fdp;
  auto curve = [&](const std::string& name, double eps, bool dashed) {
    plotting::PlotSeries c;
    c.name = name;
    c.dashed = dashed;
    const double mu = gaussian ? gaussian_mu_for(eps, delta) : 0;
    for (int k = 0; k <= 80; ++k) {
      const double f = std::min(lo * portable::pow(1 / lo, k / 80.0), 1 - 1e-9);
      const double z = portable::normal_quantile(f);
      c.x.push_back(f);
      c.y.push_back(gaussian ? portable::normal_cdf(z + mu) : std::min(1.0, portable::binary64::exp(eps) * f + delta));
    }
    p.series.push_back(c);
  };
  curve("refuted: eps " + num(r.epsilon_lower), r.epsilon_lower, true);
  if (claimed) curve("claim: eps " + num(*claimed), *claimed, false);
  return plotting::render_svg(p);
}

}  // namespace dpl::audit
