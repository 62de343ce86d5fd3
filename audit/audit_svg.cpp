#include "audit/audit_svg.h"

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

}  // namespace dpl::audit
