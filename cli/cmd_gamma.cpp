// SPDX-License-Identifier: Apache-2.0
// `dpledger gamma`: worst- versus average-case privacy of seed 000's randomized local aggregation, one point or
// a grid (CSV and an SVG heat map like Fig. 2-1, left, of the thesis).
#include "accounting/errors.h"
#include "accounting/gamma/average_case_gamma.h"
#include "accounting/gamma/certified_gamma.h"
#include "algorithms/run/json_safe.h"
#include "accounting/numeric/decimal.h"
#include "cli/command_registry.h"
#include "cli/option_values.h"
#include "cli/output_file.h"
#include "cli/progress.h"
#include "presentation/text_table.h"
#include "cli/resource_limits.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace dpl::cli {
namespace {

struct GammaOptions {
  std::string omega, beta, shift = "0.001", csv, svg;
};

struct Range {
  double start, stop;
  int count;
  bool grid;
  double at(int i) const {
    if (count == 1 || i == 0) return start;
    if (i == count - 1) return stop;
    // The point meant, not its binary64 residue: 0.1 + 0.9 * 2/9 is 0.30000000000000004 in binary64, and the grid
    // point is 0.3 (rounded to 15 significant digits, far below the spacing of any grid of at most 1,000 points).
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", start + (stop - start) * i / (count - 1));
    return std::strtod(text, nullptr);
  }
};

// W or start:stop:count (linear, count >= 1), each value in (0, inf).
Range parse_range(const std::string& option, const std::string& text) {
  Range r{0, 0, 1, false};
  const auto c1 = text.find(':');
  if (c1 == std::string::npos) {
    r.start = r.stop = parse_finite(option, text);
  } else {
    const auto c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos) throw InputError(option + "=" + text + " is not a value or start:stop:count");
    r.start = parse_finite(option, text.substr(0, c1));
    r.stop = parse_finite(option, text.substr(c1 + 1, c2 - c1 - 1));
    const double n = parse_finite(option, text.substr(c2 + 1));
    if (!(n >= 1 && n <= 1000 && n == std::floor(n)))
      throw InputError(option + "=" + text + ": count is out of range: allowed integers [1, 1000]");
    r.count = static_cast<int>(n);
    r.grid = true;
  }
  if (!(r.start > 0) || !(r.stop > 0)) throw InputError(option + "=" + text + " is out of range: allowed (0, inf)");
  return r;
}

std::string colour(double v) {  // 0 -> dark blue, 1 -> yellow (viridis-like endpoints)
  const double t = std::clamp(v, 0.0, 1.0);
  const int r = static_cast<int>(68 + t * (253 - 68)), g = static_cast<int>(1 + t * (231 - 1)),
            b = static_cast<int>(84 + t * (37 - 84));
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

// A grid value as a tick label: 12 significant digits, so start + i * step prints as the decimal a person typed
// (0.3, not 0.30000000000000004).
std::string grid_label(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.12g", v);
  return b;
}

std::string heat_map(const Range& om, const Range& be, const std::vector<std::vector<double>>& g, double shift) {
  const std::string title = "gamma = E[loss]/worst (Xiao 2019, Thm 2.2.1), shift = " + format_input(shift);
  // Columns wide enough for the longest beta label (about 6.5 px per character at 11 px), and the picture wide
  // enough for the title (about 7.6 px per character at 14 px).
  std::size_t longest = 0;
  for (int j = 0; j < be.count; ++j) longest = std::max(longest, grid_label(be.at(j)).size());
  const int cw = std::max(48, static_cast<int>(6.5 * static_cast<double>(longest)) + 8), ch = 36, left = 110, top = 50;
  const int w = std::max(left + cw * be.count + 120, left + static_cast<int>(7.6 * static_cast<double>(title.size())) + 10);
  const int h = top + ch * om.count + 70;
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' font-family='sans-serif' font-size='11'>\n";
  s << "<text x='" << left << "' y='20' font-size='14'>" << title << "</text>\n";
  for (int i = 0; i < om.count; ++i) {
    for (int j = 0; j < be.count; ++j) {
      const int x = left + j * cw, y = top + i * ch;
      s << "<rect x='" << x << "' y='" << y << "' width='" << cw << "' height='" << ch << "' fill='" << colour(g[i][j]) << "'/>";
      s << "<text x='" << x + 4 << "' y='" << y + ch / 2 + 4 << "' fill='" << (g[i][j] > 0.55 ? "black" : "white") << "'>"
        << std::fixed << std::setprecision(3) << g[i][j] << "</text>\n";
    }
    s << "<text x='" << left - 6 << "' y='" << top + i * ch + ch / 2 + 4 << "' text-anchor='end'>" << grid_label(om.at(i)) << "</text>\n";
  }
  for (int j = 0; j < be.count; ++j)
    s << "<text x='" << left + j * cw + cw / 2 << "' y='" << top + om.count * ch + 16 << "' text-anchor='middle'>"
      << grid_label(be.at(j)) << "</text>\n";
  s << "<text x='" << left + be.count * cw / 2 << "' y='" << top + om.count * ch + 40 << "' text-anchor='middle'>beta (Laplace rate)</text>\n";
  s << "<text x='20' y='" << top + om.count * ch / 2 << "' transform='rotate(-90 20 " << top + om.count * ch / 2
    << ")' text-anchor='middle'>omega (interval length)</text>\n";
  for (int k = 0; k <= 10; ++k)
    s << "<rect x='" << left + be.count * cw + 30 << "' y='" << top + (10 - k) * ch * om.count / 11 << "' width='20' height='"
      << ch * om.count / 11 + 1 << "' fill='" << colour(k / 10.0) << "'/>";
  s << "<text x='" << left + be.count * cw + 55 << "' y='" << top + 10 << "'>1</text><text x='" << left + be.count * cw + 55
    << "' y='" << top + ch * om.count << "'>0</text>\n</svg>\n";
  return s.str();
}

Output run_gamma(const GammaOptions& o) {
  const Range om = parse_range("--omega", o.omega), be = parse_range("--beta", o.beta);
  const double shift = parse_finite("--shift", o.shift);
  if (!(shift > 0)) throw InputError("--shift=" + o.shift + " is out of range: allowed (0, inf)");
  Output out;
  out.json["command"] = "gamma";
  if (!om.grid && !be.grid) {
    if (!o.csv.empty() || !o.svg.empty()) throw InputError("--csv/--svg need a grid: --omega a:b:n and/or --beta a:b:n");
    const GammaResult g = average_case_gamma(om.start, be.start, shift);
    // The certified figures at the decimals typed (their enclosures, not their nearest doubles): u = beta omega and
    // e = beta shift enclosed, beta * shift rounded up (the worst case is an upper bound too).
    const Interval omega_x = parse_decimal("--omega", o.omega).exact, beta_x = parse_decimal("--beta", o.beta).exact,
                   shift_x = parse_decimal("--shift", o.shift).exact;
    const GammaEnclosure c = certified_gamma(beta_x * omega_x, beta_x * shift_x);
    const Interval worst = beta_x * shift_x;
    out.json["omega"] = om.start;
    out.json["beta"] = be.start;
    out.json["shift"] = shift;
    out.json["worst"] = json_upper(worst);
    out.json["gamma"] = g.gamma.convert_to<double>();
    out.json["gamma_is"] = "estimate (Gauss-Kronrod, 200-bit MPFR); gamma_lower/gamma_upper are certified";
    out.json["gamma_lower"] = json_lower(c.gamma);
    out.json["gamma_upper"] = json_upper(c.gamma);
    out.json["expected_loss_upper"] = json_upper(c.gamma * worst);
    if (g.thesis_applies) {
      out.json["gamma_thesis_bound"] = g.thesis_bound.convert_to<double>();
      out.json["thesis_bound_is_below_gamma"] = g.thesis_bound < g.gamma;
    } else {
      out.json["gamma_thesis_bound"] =
          "not applicable: eq. (2.6) assumes omega > shift (Thm 2.2.2); not evaluated for beta*shift <= 1e-30";
    }
    out.json["small_shift_limit"] = g.small_shift.convert_to<double>();
    out.json["quadrature_error"] = g.quadrature_error.convert_to<double>();
    out.json["method"] = "gamma: Gauss-Kronrod (61 points, adaptive) in 200-bit MPFR with breakpoints {0, min(e,u/2), "
                         "u/2}, an estimate; gamma_lower/upper: composite midpoint rule with its rigorous remainder "
                         "h^3 f''/24, f'' enclosed in interval arithmetic on each panel (" +
                         std::to_string(c.panels) + " panels" + (c.converged ? "" : ", panel limit reached") +
                         "); endpoint maximisation by log-concavity (docs/xiao2019.md)";
    std::ostringstream t;
    t << "worst          " << format_upper(worst) << "   (beta * shift: the worst-case loss per coordinate and step)\n";
    t << "gamma          " << format_nearest(g.gamma) << "   (E[loss] / worst, estimate; quadrature error estimate "
      << format_up(g.quadrature_error, 2) << ")\n";
    t << "certified      [" << format_lower(c.gamma) << ", " << format_upper(c.gamma) << "]   (enclosure of gamma)\n";
    if (g.thesis_applies)
      t << "thesis (2.6)   " << format_nearest(g.thesis_bound) << "   ("
        << (g.thesis_bound < g.gamma ? "BELOW the exact gamma: the printed bound is not a bound" : "above the exact gamma here") << ")\n";
    else
      t << "thesis (2.6)   not applicable (omega > shift fails, or beta*shift <= 1e-30 where it cancels)\n";
    t << "small shift    " << format_nearest(g.small_shift) << "   (2(1 - e^{-u/2})/u, the shift -> 0 limit)\n";
    out.text = t.str();
    out.json = algorithms::json_safe(out.json);
    return out;
  }
  // At most kMaxGridPoints (the rows of the CSV and JSON stay small).
  constexpr int kMaxGridPoints = 2500;
  if (om.count * be.count > kMaxGridPoints)
    throw InputError("--omega/--beta: a grid of " + std::to_string(om.count) + " x " + std::to_string(be.count) + " = " +
                     std::to_string(om.count * be.count) + " points exceeds the limit of " +
                     std::to_string(kMaxGridPoints) + " points; use fewer points per axis");
  // Up to ~15 ms per point at the grid's quadrature (kGammaGridQuadrature; ~4-13 ms measured across the
  // parameter range): the whole grid is checked against --time-limit before the first point.
  require_time_within_limit(0.015 * om.count * be.count,
                            "gamma grid of " + std::to_string(om.count) + " x " + std::to_string(be.count) + " points",
                            "use fewer points per axis");
  std::vector<std::vector<double>> grid(om.count, std::vector<double>(be.count));
  std::ostringstream csv;
  csv << "omega,beta,shift,gamma,gamma_thesis_bound,difference\n" << std::setprecision(15);
  Json rows = Json::array();
  int below = 0;
  Progress bar("gamma grid");
  for (int i = 0; i < om.count; ++i) {
    for (int j = 0; j < be.count; ++j) {
      const GammaResult g = average_case_gamma(om.at(i), be.at(j), shift, kGammaGridQuadrature);
      const double gv = g.gamma.convert_to<double>(), tv = g.thesis_bound.convert_to<double>();
      grid[i][j] = gv;
      below += g.thesis_applies && tv < gv;
      csv << om.at(i) << "," << be.at(j) << "," << shift << "," << gv << ",";
      if (g.thesis_applies)
        csv << tv << "," << gv - tv << "\n";
      else
        csv << "NA,NA\n";
      rows.push_back(Json{{"omega", om.at(i)}, {"beta", be.at(j)}, {"gamma", gv},
                          {"gamma_thesis_bound", g.thesis_applies ? Json(tv) : Json("not applicable")}});
      bar.update(double(i * be.count + j + 1) / double(om.count * be.count),
                 std::to_string(i * be.count + j + 1) + " of " + std::to_string(om.count * be.count) + " points");
    }
  }
  if (!o.csv.empty()) stage_output(o.csv, csv.str());
  if (!o.svg.empty()) stage_output(o.svg, heat_map(om, be, grid, shift));
  out.json["shift"] = shift;
  out.json["points"] = rows;
  out.json["thesis_bound_below_gamma"] = below;
  if (!o.csv.empty()) out.json["csv"] = o.csv;
  if (!o.svg.empty()) out.json["svg"] = o.svg;
  std::ostringstream t;
  presentation::TextTable table({"omega", "beta", "gamma", "thesis (2.6)"});
  for (const auto& r : rows) {
    std::ostringstream g;
    g << std::setprecision(12) << r["gamma"].get<double>();
    table.add_row({format_input(r["omega"]), format_input(r["beta"]), g.str(),
                   r["gamma_thesis_bound"].is_number() ? format_nearest(Real(r["gamma_thesis_bound"].get<double>()))
                                                       : std::string("not applicable")});
  }
  t << table.str();
  t << below << " of " << rows.size() << " grid points have the thesis bound (2.6) below the exact gamma\n";
  out.text = t.str();
  out.json = algorithms::json_safe(out.json);
  return out;
}

const Registration gamma_registration{"gamma", 40, [](CLI::App& root, CLI::App*& sub) -> Runner {
  auto o = std::make_shared<GammaOptions>();
  sub = root.add_subcommand("gamma",
                            "Worst vs average-case privacy of Xiao 2019's randomized local aggregation: gamma = "
                            "E[loss]/worst by quadrature, and the thesis's eq. (2.6)");
  sub->add_option("--omega", o->omega, "Aggregation interval length W > 0, or a grid start:stop:count")->required();
  sub->add_option("--beta", o->beta, "Laplace rate B > 0 (density B/2 e^{-B|y|}), or a grid start:stop:count")->required();
  sub->add_option("--shift", o->shift, "Neighbouring shift S = B_inf/D_i > 0")->capture_default_str();
  sub->add_option("--csv", o->csv, "Grid mode: write omega,beta,shift,gamma,gamma_thesis_bound,difference")
      ->check(writable_output_file());
  sub->add_option("--svg", o->svg, "Grid mode: write a heat map of gamma (Fig. 2-1, left, of the thesis)")
      ->check(writable_output_file());
  return [o] { return run_gamma(*o); };
}};

}  // namespace
}  // namespace dpl::cli
