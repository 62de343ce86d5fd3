#include "audit/audit_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace dpl::audit {

namespace {

constexpr int kW = 760, kH = 440, kL = 80, kR = 200, kT = 50, kB = 60;

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", x);
  return b;
}

struct Frame {
  double x0, x1, y0, y1;
  double px(double x) const { return kL + (x - x0) / (x1 - x0) * (kW - kL - kR); }
  double py(double y) const { return kH - kB - (y - y0) / (y1 - y0) * (kH - kT - kB); }
};

void axes(std::ostringstream& s, const Frame& f, const std::string& title, const std::string& xlabel,
          const std::string& ylabel) {
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << kW << "' height='" << kH
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='" << kL << "' y='25' font-size='14'>" << title << "</text>\n";
  s << "<line x1='" << kL << "' y1='" << kH - kB << "' x2='" << kW - kR << "' y2='" << kH - kB << "' stroke='black'/>\n";
  s << "<line x1='" << kL << "' y1='" << kT << "' x2='" << kL << "' y2='" << kH - kB << "' stroke='black'/>\n";
  for (int k = 0; k <= 5; ++k) {
    const double x = f.x0 + (f.x1 - f.x0) * k / 5, y = f.y0 + (f.y1 - f.y0) * k / 5;
    s << "<line x1='" << f.px(x) << "' y1='" << kH - kB << "' x2='" << f.px(x) << "' y2='" << kH - kB + 5 << "' stroke='black'/>"
      << "<text x='" << f.px(x) << "' y='" << kH - kB + 18 << "' text-anchor='middle'>" << num(x) << "</text>\n";
    s << "<line x1='" << kL - 5 << "' y1='" << f.py(y) << "' x2='" << kL << "' y2='" << f.py(y) << "' stroke='black'/>"
      << "<text x='" << kL - 8 << "' y='" << f.py(y) + 4 << "' text-anchor='end'>" << num(y) << "</text>\n";
  }
  s << "<text x='" << (kL + kW - kR) / 2 << "' y='" << kH - 15 << "' text-anchor='middle'>" << xlabel << "</text>\n";
  s << "<text x='20' y='" << (kT + kH - kB) / 2 << "' transform='rotate(-90 20 " << (kT + kH - kB) / 2
    << ")' text-anchor='middle'>" << ylabel << "</text>\n";
}

void legend(std::ostringstream& s, int row, const std::string& colour, const std::string& text, bool dashed = false) {
  const int x = kW - kR + 15, y = kT + 10 + 20 * row;
  s << "<line x1='" << x << "' y1='" << y << "' x2='" << x + 25 << "' y2='" << y << "' stroke='" << colour
    << "' stroke-width='3'" << (dashed ? " stroke-dasharray='6,3'" : "") << "/><text x='" << x + 32 << "' y='" << y + 4
    << "'>" << text << "</text>\n";
}

void vline(std::ostringstream& s, const Frame& f, double x, const std::string& colour) {
  s << "<line x1='" << f.px(x) << "' y1='" << kT << "' x2='" << f.px(x) << "' y2='" << kH - kB << "' stroke='" << colour
    << "' stroke-width='2' stroke-dasharray='6,3'/>\n";
}

}  // namespace

std::string threshold_audit_svg(const ThresholdCounts& c, const AuditResult& r, const std::string& title) {
  const auto& t = c.thresholds;
  std::ostringstream s;
  if (t.size() < 2) return "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>\n";
  // Density per unit of output in each interior bin (t_{j-1}, t_j], estimation half.
  double ymax = 0;
  std::vector<double> dens[2];
  for (int side = 0; side < 2; ++side) {
    const double n = static_cast<double>(c.total(kEstimation, Side(side)));
    for (std::size_t j = 1; j < t.size(); ++j) {
      const double d = c.counts[kEstimation][side][j] / n / (t[j] - t[j - 1]);
      dens[side].push_back(d);
      ymax = std::max(ymax, d);
    }
  }
  const Frame f{t.front(), t.back(), 0, ymax > 0 ? ymax * 1.05 : 1};
  axes(s, f, title, "output", "density (estimation half)");
  const char* colour[2] = {"#1f77b4", "#d62728"};
  for (int side = 0; side < 2; ++side) {
    s << "<polyline fill='none' stroke='" << colour[side] << "' stroke-width='2' points='";
    for (std::size_t j = 1; j < t.size(); ++j)
      s << f.px(t[j - 1]) << "," << f.py(dens[side][j - 1]) << " " << f.px(t[j]) << "," << f.py(dens[side][j - 1]) << " ";
    s << "'/>\n";
  }
  vline(s, f, r.event.threshold, "#2ca02c");
  legend(s, 0, colour[0], "outputs on D");
  legend(s, 1, colour[1], "outputs on D'");
  legend(s, 2, "#2ca02c", std::string("event: x ") + (r.event.left_tail ? "&lt;= " : "&gt; ") + num(r.event.threshold), true);
  const int x = kW - kR + 15;
  s << "<text x='" << x << "' y='" << kT + 90 << "'>" << r.unit << " lower: " << num(r.unit == "mu" ? *r.mu_lower : r.epsilon_lower) << "</text>\n";
  s << "<text x='" << x << "' y='" << kT + 108 << "'>" << r.unit << " claimed: " << num(r.unit == "mu" ? *r.mu_claimed : r.epsilon_claimed) << "</text>\n";
  s << "<text x='" << x << "' y='" << kT + 126 << "'>verdict: " << to_string(r.verdict) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

std::string whitebox_audit_svg(const WhiteBoxResult& w) {
  std::ostringstream s;
  const std::uint64_t cmax = *std::max_element(w.hist_counts.begin(), w.hist_counts.end());
  const double xmax = std::max({w.hist_edges.back(), std::isfinite(w.epsilon_claimed) ? w.epsilon_claimed : 0.0}) * 1.05;
  const Frame f{0, xmax > 0 ? xmax : 1, 0, cmax * 1.05 + 1};
  axes(s, f, "privacy loss per run: " + w.algorithm + " (" + std::to_string(w.losses.size()) + " runs)",
       "privacy loss of the run", "runs");
  for (std::size_t b = 0; b < w.hist_counts.size(); ++b)
    s << "<rect x='" << f.px(w.hist_edges[b]) << "' y='" << f.py(static_cast<double>(w.hist_counts[b])) << "' width='"
      << std::max(1.0, f.px(w.hist_edges[b + 1]) - f.px(w.hist_edges[b]) - 1) << "' height='"
      << f.py(0) - f.py(static_cast<double>(w.hist_counts[b])) << "' fill='#1f77b4'/>\n";
  vline(s, f, w.mean_loss, "#2ca02c");
  vline(s, f, w.max_loss, "#ff7f0e");
  if (std::isfinite(w.epsilon_claimed) && w.epsilon_claimed <= f.x1) vline(s, f, w.epsilon_claimed, "#d62728");
  legend(s, 0, "#1f77b4", "runs per bin");
  legend(s, 1, "#2ca02c", "mean " + num(w.mean_loss), true);
  legend(s, 2, "#ff7f0e", "max " + num(w.max_loss), true);
  legend(s, 3, "#d62728", "claimed (max) " + num(w.epsilon_claimed), true);
  s << "<text x='" << kW - kR + 15 << "' y='" << kT + 100 << "'>verdict: " << to_string(w.verdict) << "</text>\n";
  if (w.realised_gamma)
    s << "<text x='" << kW - kR + 15 << "' y='" << kT + 118 << "'>realised gamma: " << num(*w.realised_gamma) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace dpl::audit
