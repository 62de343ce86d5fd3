// SPDX-License-Identifier: Apache-2.0
#include "plotting/svg_plot.h"

#include "accounting/errors.h"
#include "accounting/numeric/portable_math.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace dpl::plotting {
namespace {

const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string xml(const std::string& s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '\'': r += "&apos;"; break;
      case '"': r += "&quot;"; break;
      default: r += c;
    }
  }
  return r;
}

std::string num(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

bool drawable(double x, double y, const Plot& p) {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  if (p.x.log && x <= 0) return false;
  if (p.y.log && y <= 0) return false;
  return true;
}

}  // namespace

std::string decimal_label(long long m, int e) {
  if (m == 0) return "0";
  const bool neg = m < 0;
  unsigned long long a = neg ? 0ULL - static_cast<unsigned long long>(m) : static_cast<unsigned long long>(m);
  while (a % 10 == 0) {
    a /= 10;
    ++e;
  }
  std::string digits = std::to_string(a);
  const int len = static_cast<int>(digits.size());
  const int exp10 = e + len - 1;  // the value is d.ddd x 10^exp10
  std::string r;
  if (exp10 < -4 || exp10 >= 7) {
    r = digits.substr(0, 1);
    // (Appended piece by piece: GCC 12 warns falsely, -Wrestrict, on "literal" + std::string&&.)
    if (len > 1) {
      r += '.';
      r += digits.substr(1);
    }
    r += 'e';
    r += std::to_string(exp10);
  } else if (e >= 0) {
    r = digits + std::string(static_cast<std::size_t>(e), '0');
  } else if (-e < len) {
    r = digits.substr(0, static_cast<std::size_t>(len + e)) + "." + digits.substr(static_cast<std::size_t>(len + e));
  } else {
    r = "0." + std::string(static_cast<std::size_t>(-e - len), '0') + digits;
  }
  return neg ? "-" + r : r;
}

Ticks linear_ticks(double lo, double hi, int target, bool integer) {
  Ticks t;
  if (!(hi > lo)) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(target, 2);
  int e = static_cast<int>(std::floor(portable::log10(raw)));
  const double f = raw / portable::pow(10.0, e);
  long long m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  if (m == 10) {
    m = 1;
    ++e;
  }
  if (integer && e < 0) {  // counts: a step of 1 at least
    m = 1;
    e = 0;
  }
  const double step = static_cast<double>(m) * portable::pow(10.0, e);
  const auto i0 = static_cast<long long>(std::ceil(lo / step - 1e-9));
  const auto i1 = static_cast<long long>(std::floor(hi / step + 1e-9));
  for (long long i = i0; i <= i1 && t.at.size() < 100; ++i) {
    t.at.push_back(static_cast<double>(i) * step);
    t.labels.push_back(decimal_label(i * m, e));
  }
  return t;
}

Ticks log_ticks(double lo, double hi, int target) {
  Ticks t;
  const int p0 = static_cast<int>(std::floor(portable::log10(lo) + 1e-12));
  const int p1 = static_cast<int>(std::ceil(portable::log10(hi) - 1e-12));
  const int decades = std::max(p1 - p0, 1);
  const int stride = std::max(1, (decades + target - 1) / target);
  const bool subdivide = decades <= 2;
  std::vector<std::pair<long long, int>> marks;
  for (int p = p0; p <= p1; ++p) {
    if ((p - p0) % stride != 0) continue;
    for (long long m : {1LL, 2LL, 5LL}) {
      if (m != 1 && !subdivide) continue;
      const double v = static_cast<double>(m) * portable::pow(10.0, p);
      if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
      t.at.push_back(v);
      marks.emplace_back(m, p);
    }
  }
  // One notation per axis: plain decimals while every label is short (0.001 ... 10000), else m e p for all.
  const bool plain = std::all_of(marks.begin(), marks.end(), [](const auto& mp) { return mp.second >= -3 && mp.second <= 4; });
  for (const auto& [m, p] : marks)
    t.labels.push_back(plain || p == 0 ? decimal_label(m, p) : std::to_string(m) + "e" + std::to_string(p));
  return t;
}

namespace {

// One plot drawn into `s` with its top-left corner at (ox, oy); `title_size` 15 for a whole document.
void render_panel(const Plot& p, double ox, double oy, std::ostringstream& s) {
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  auto extend = [&](double x, double y) {
    if (!drawable(x, y, p)) return;
    xlo = std::min(xlo, x);
    xhi = std::max(xhi, x);
    ylo = std::min(ylo, y);
    yhi = std::max(yhi, y);
  };
  for (const auto& ser : p.series)
    for (std::size_t i = 0; i < std::min(ser.x.size(), ser.y.size()); ++i) extend(ser.x[i], ser.y[i]);
  for (const auto& b : p.bands) {
    if (b.series >= p.series.size()) continue;
    const auto& x = p.series[b.series].x;
    for (std::size_t i = 0; i < std::min({x.size(), b.lo.size(), b.hi.size()}); ++i) {
      extend(x[i], b.lo[i]);
      extend(x[i], b.hi[i]);
    }
  }
  if (!std::isfinite(xlo)) throw InputError("plot '" + p.title + "': no finite point to draw");
  for (const auto& l : p.lines) extend(xlo, l.y);
  for (double x : p.x_extent) extend(x, ylo);

  // Axis ranges: round outwards to ticks (log: whole decades), linear y padded and starting at 0 when near it.
  auto range = [](double lo, double hi, bool log, bool from_zero, bool integer) {
    if (log) {
      lo = portable::pow(10.0, std::floor(portable::log10(lo) + 1e-12));
      hi = portable::pow(10.0, std::ceil(portable::log10(hi) - 1e-12));
      if (hi <= lo) hi = lo * 10;
      return std::pair{lo, hi};
    }
    if (from_zero && lo > 0 && lo < 0.5 * hi) lo = 0;
    // Values equal to 9 digits are one value (e.g. a claim and its certified bound): a range around it, not ticks
    // 1e-12 apart.
    if (hi - lo <= 1e-9 * std::max(std::abs(lo), std::abs(hi))) hi = lo;
    if (hi <= lo) return std::pair{lo - (lo == 0 ? 1 : std::abs(lo) * 0.1), hi + (hi == 0 ? 1 : std::abs(hi) * 0.1)};
    const Ticks t = linear_ticks(lo, hi, 6, integer);
    const double step = t.at.size() >= 2 ? t.at[1] - t.at[0] : (hi - lo);
    return std::pair{std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step};
  };
  auto [x0, x1] = range(xlo, xhi, p.x.log, false, p.x.integer);
  const auto [y0, y1] = range(ylo, yhi, p.y.log, true, p.y.integer);
  const Ticks xt = p.x.log ? log_ticks(x0, x1) : linear_ticks(x0, x1, 6, p.x.integer);
  const Ticks yt = p.y.log ? log_ticks(y0, y1) : linear_ticks(y0, y1, 6, p.y.integer);
  // A line on the extreme x of a linear axis would lie on the frame and hide there: 2% of room on that side (not
  // below 0 for data that start at 0 or above); the ticks stay where they are.
  if (!p.x.log) {
    const double room = 0.02 * (x1 - x0);
    if (xhi >= x1) x1 += room;
    if (xlo <= x0 && xlo < 0) x0 -= room;
  }

  // Legend entries: none for a series without a drawable point; a series drawn exactly over an earlier one is
  // hidden by it, so its entry says under which.
  std::vector<std::string> legend;
  {
    std::vector<std::pair<std::vector<std::pair<double, double>>, std::string>> seen;
    for (const auto& ser : p.series) {
      std::vector<std::pair<double, double>> pts;
      for (std::size_t i = 0; i < std::min(ser.x.size(), ser.y.size()); ++i)
        if (drawable(ser.x[i], ser.y[i], p)) pts.emplace_back(ser.x[i], ser.y[i]);
      std::string name = pts.empty() ? "" : ser.name;
      // Equal to 9 digits is equal on any picture.
      auto same = [](const std::vector<std::pair<double, double>>& a, const std::vector<std::pair<double, double>>& b) {
        if (a.size() != b.size()) return false;
        auto close = [](double u, double v) { return std::abs(u - v) <= 1e-9 * std::max(std::abs(u), std::abs(v)); };
        for (std::size_t i = 0; i < a.size(); ++i)
          if (!close(a[i].first, b[i].first) || !close(a[i].second, b[i].second)) return false;
        return true;
      };
      for (const auto& [other, earlier] : seen)
        if (!pts.empty() && same(other, pts)) {
          name += " (= " + earlier + ")";
          break;
        }
      if (!pts.empty()) seen.emplace_back(std::move(pts), ser.name);
      legend.push_back(name);
    }
  }
  // The legend's width follows its longest entry (about 6.6 px a character at 12 px), at least 200 px.
  std::size_t longest = 0;
  for (const auto& name : legend) longest = std::max(longest, name.size());
  const double right = std::max(200.0, 50 + 6.6 * static_cast<double>(longest));
  const double left = ox + 86, top = oy + 44, bottom = 62;
  const double pw = p.width - 86 - right, ph = p.height - 44 - bottom;
  auto fx = [&](double x) {
    const double u = p.x.log ? (portable::log10(x) - portable::log10(x0)) / (portable::log10(x1) - portable::log10(x0)) : (x - x0) / (x1 - x0);
    return left + u * pw;
  };
  auto fy = [&](double y) {
    const double u = p.y.log ? (portable::log10(y) - portable::log10(y0)) / (portable::log10(y1) - portable::log10(y0)) : (y - y0) / (y1 - y0);
    return top + (1 - u) * ph;
  };

  s << "<text x='" << left << "' y='" << oy + 24 << "' font-size='15'>" << xml(p.title) << "</text>\n";
  for (std::size_t i = 0; i < xt.at.size(); ++i) {
    const double x = fx(xt.at[i]);
    s << "<line x1='" << num(x) << "' y1='" << top << "' x2='" << num(x) << "' y2='" << top + ph
      << "' stroke='#e4e4e4'/>\n<text x='" << num(x) << "' y='" << top + ph + 18 << "' text-anchor='middle'>"
      << xml(xt.labels[i]) << "</text>\n";
  }
  for (std::size_t i = 0; i < yt.at.size(); ++i) {
    const double y = fy(yt.at[i]);
    s << "<line x1='" << left << "' y1='" << num(y) << "' x2='" << left + pw << "' y2='" << num(y)
      << "' stroke='#e4e4e4'/>\n<text x='" << left - 8 << "' y='" << num(y + 4) << "' text-anchor='end'>"
      << xml(yt.labels[i]) << "</text>\n";
  }
  s << "<rect x='" << left << "' y='" << top << "' width='" << pw << "' height='" << ph
    << "' fill='none' stroke='black'/>\n"
    << "<text x='" << left + pw / 2 << "' y='" << oy + p.height - 18 << "' text-anchor='middle'>" << xml(p.x.label)
    << "</text>\n"
    << "<text x='" << ox + 20 << "' y='" << top + ph / 2 << "' text-anchor='middle' transform='rotate(-90 " << ox + 20
    << " " << top + ph / 2 << ")'>" << xml(p.y.label) << "</text>\n";

  // Bands first (under every line), then the reference lines, then the series.
  for (const auto& b : p.bands) {
    if (b.series >= p.series.size()) continue;
    const char* color = kPalette[b.series % (sizeof kPalette / sizeof *kPalette)];
    const auto& x = p.series[b.series].x;
    std::ostringstream up, down;
    std::vector<std::pair<double, double>> lower;
    for (std::size_t i = 0; i < std::min({x.size(), b.lo.size(), b.hi.size()}); ++i) {
      if (!drawable(x[i], b.hi[i], p)) continue;
      // A lower end below a log axis is drawn at the axis.
      const double lo_y = drawable(x[i], b.lo[i], p) ? b.lo[i] : y0;
      up << num(fx(x[i])) << "," << num(fy(std::min(b.hi[i], y1))) << " ";
      lower.emplace_back(fx(x[i]), fy(std::max(lo_y, y0)));
    }
    for (auto it = lower.rbegin(); it != lower.rend(); ++it) down << num(it->first) << "," << num(it->second) << " ";
    if (!lower.empty())
      s << "<polygon fill='" << color << "' fill-opacity='0.18' stroke='none' points='" << up.str() << down.str()
        << "'/>\n";
  }
  // The reference lines under the series, their labels over them (drawn after the series, on a white halo).
  std::ostringstream line_labels;
  for (const auto& l : p.lines) {
    if (p.y.log && !(l.y > 0)) continue;
    const double y = fy(l.y);
    s << "<line x1='" << left << "' y1='" << num(y) << "' x2='" << left + pw << "' y2='" << num(y)
      << "' stroke='#555' stroke-dasharray='3 3'/>\n";
    line_labels << "<text x='" << left + 6 << "' y='" << num(y - 5) << "' fill='#444' font-size='11' stroke='#fff' "
                << "stroke-width='3' paint-order='stroke'>" << xml(l.label) << "</text>\n";
  }
  std::size_t k = 0, legend_row = 0;
  for (const auto& ser : p.series) {
    const char* color = kPalette[k % (sizeof kPalette / sizeof *kPalette)];
    std::ostringstream pts;
    std::size_t n = 0;
    for (std::size_t i = 0; i < std::min(ser.x.size(), ser.y.size()); ++i) {
      if (!drawable(ser.x[i], ser.y[i], p)) continue;
      if (ser.points)  // a dashed series' markers are rings, so that a dot at the same place stays visible
        s << "<circle cx='" << num(fx(ser.x[i])) << "' cy='" << num(fy(ser.y[i]))
          << (ser.dashed ? "' r='6' fill='none' stroke-width='2' stroke='" : "' r='3' fill='") << color << "'/>\n";
      pts << num(fx(ser.x[i])) << "," << num(fy(ser.y[i])) << " ";
      ++n;
    }
    if (n == 0) {  // nothing drawn: no legend entry either
      ++k;
      continue;
    }
    if (!ser.points)
      s << "<polyline fill='none' stroke='" << color << "' stroke-width='2'" << (ser.dashed ? " stroke-dasharray='6 4'" : "")
        << " points='" << pts.str() << "'/>\n";
    const std::string& name = legend[k];
    const double ly = top + 14 + 20 * static_cast<double>(legend_row++);
    const double lx = left + pw + 14;
    if (ser.points)
      s << "<circle cx='" << lx + 12 << "' cy='" << ly - 4
        << (ser.dashed ? "' r='6' fill='none' stroke-width='2' stroke='" : "' r='3' fill='") << color << "'/>\n";
    else
      s << "<line x1='" << lx << "' y1='" << ly - 4 << "' x2='" << lx + 24 << "' y2='" << ly - 4 << "' stroke='" << color
        << "' stroke-width='2'" << (ser.dashed ? " stroke-dasharray='6 4'" : "") << "/>\n";
    s << "<text x='" << lx + 30 << "' y='" << ly << "'>" << xml(name) << "</text>\n";
    ++k;
  }
  s << line_labels.str();
}

}  // namespace

std::string render_svg(const Plot& p) {
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << p.width << "' height='" << p.height
    << "' font-family='sans-serif' font-size='12'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
  render_panel(p, 0, 0, s);
  s << "</svg>\n";
  return s.str();
}

std::string render_svg_grid(const std::vector<Plot>& panels, const std::string& title, int columns,
                            const std::vector<std::string>& notes) {
  if (panels.empty()) throw InputError("plot '" + title + "': no panel to draw");
  columns = std::max(1, columns);
  const double head = title.empty() ? 0 : 34, foot = 18 * static_cast<double>(notes.size()) + (notes.empty() ? 0 : 10);
  double width = 0, height = head;
  for (std::size_t r = 0; r * static_cast<std::size_t>(columns) < panels.size(); ++r) {
    double row_w = 0, row_h = 0;
    for (std::size_t c = 0; c < static_cast<std::size_t>(columns) && r * columns + c < panels.size(); ++c) {
      row_w += panels[r * columns + c].width;
      row_h = std::max(row_h, static_cast<double>(panels[r * columns + c].height));
    }
    width = std::max(width, row_w);
    height += row_h;
  }
  height += foot;
  width = std::max(width, 32 + 10.2 * static_cast<double>(title.size()));  // the title (17 px bold) fits
  // Notes wrapped at word boundaries to the figure's width (about 6 px a character at 11 px).
  const auto per_line = static_cast<std::size_t>(std::max(40.0, (width - 32) / 6.0));
  std::vector<std::string> lines;
  for (const auto& note : notes) {
    std::string line, word;
    std::istringstream words(note);
    while (words >> word) {
      if (!line.empty() && line.size() + 1 + word.size() > per_line) {
        lines.push_back(line);
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) lines.push_back(line);
  }
  height += 18 * static_cast<double>(lines.size() - notes.size());
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << num(width) << "' height='" << num(height)
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  if (!title.empty()) s << "<text x='16' y='24' font-size='17' font-weight='bold'>" << xml(title) << "</text>\n";
  double y = head;
  for (std::size_t r = 0; r * static_cast<std::size_t>(columns) < panels.size(); ++r) {
    double x = 0, row_h = 0;
    for (std::size_t c = 0; c < static_cast<std::size_t>(columns) && r * columns + c < panels.size(); ++c) {
      const Plot& p = panels[r * columns + c];
      render_panel(p, x, y, s);
      x += p.width;
      row_h = std::max(row_h, static_cast<double>(p.height));
    }
    y += row_h;
  }
  for (const auto& line : lines) {
    y += 18;
    s << "<text x='16' y='" << num(y) << "' font-size='11' fill='#333'>" << xml(line) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace dpl::plotting
