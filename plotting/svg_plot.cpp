#include "plotting/svg_plot.h"

#include "accounting/errors.h"

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

Ticks linear_ticks(double lo, double hi, int target) {
  Ticks t;
  if (!(hi > lo)) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(target, 2);
  int e = static_cast<int>(std::floor(std::log10(raw)));
  const double f = raw / std::pow(10.0, e);
  long long m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  if (m == 10) {
    m = 1;
    ++e;
  }
  const double step = static_cast<double>(m) * std::pow(10.0, e);
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
  const int p0 = static_cast<int>(std::floor(std::log10(lo) + 1e-12));
  const int p1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-12));
  const int decades = std::max(p1 - p0, 1);
  const int stride = std::max(1, (decades + target - 1) / target);
  const bool subdivide = decades <= 2;
  for (int p = p0; p <= p1; ++p) {
    if ((p - p0) % stride != 0) continue;
    for (long long m : {1LL, 2LL, 5LL}) {
      if (m != 1 && !subdivide) continue;
      const double v = static_cast<double>(m) * std::pow(10.0, p);
      if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
      t.at.push_back(v);
      t.labels.push_back(decimal_label(m, p));
    }
  }
  return t;
}

std::string render_svg(const Plot& p) {
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  for (const auto& s : p.series)
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!drawable(s.x[i], s.y[i], p)) continue;
      xlo = std::min(xlo, s.x[i]);
      xhi = std::max(xhi, s.x[i]);
      ylo = std::min(ylo, s.y[i]);
      yhi = std::max(yhi, s.y[i]);
    }
  if (!std::isfinite(xlo)) throw InputError("plot '" + p.title + "': no finite point to draw");

  // Axis ranges: round outwards to ticks (log: whole decades), linear y padded and starting at 0 when near it.
  auto range = [](double lo, double hi, bool log, bool from_zero) {
    if (log) {
      lo = std::pow(10.0, std::floor(std::log10(lo) + 1e-12));
      hi = std::pow(10.0, std::ceil(std::log10(hi) - 1e-12));
      if (hi <= lo) hi = lo * 10;
      return std::pair{lo, hi};
    }
    if (from_zero && lo > 0 && lo < 0.5 * hi) lo = 0;
    if (hi <= lo) return std::pair{lo - (lo == 0 ? 1 : std::abs(lo) * 0.1), hi + (hi == 0 ? 1 : std::abs(hi) * 0.1)};
    const Ticks t = linear_ticks(lo, hi);
    const double step = t.at.size() >= 2 ? t.at[1] - t.at[0] : (hi - lo);
    return std::pair{std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step};
  };
  const auto [x0, x1] = range(xlo, xhi, p.x.log, false);
  const auto [y0, y1] = range(ylo, yhi, p.y.log, true);
  const Ticks xt = p.x.log ? log_ticks(x0, x1) : linear_ticks(x0, x1);
  const Ticks yt = p.y.log ? log_ticks(y0, y1) : linear_ticks(y0, y1);

  const double left = 86, right = 200, top = 44, bottom = 62;
  const double pw = p.width - left - right, ph = p.height - top - bottom;
  auto fx = [&](double x) {
    const double u = p.x.log ? (std::log10(x) - std::log10(x0)) / (std::log10(x1) - std::log10(x0)) : (x - x0) / (x1 - x0);
    return left + u * pw;
  };
  auto fy = [&](double y) {
    const double u = p.y.log ? (std::log10(y) - std::log10(y0)) / (std::log10(y1) - std::log10(y0)) : (y - y0) / (y1 - y0);
    return top + (1 - u) * ph;
  };

  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << p.width << "' height='" << p.height
    << "' font-family='sans-serif' font-size='12'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n"
    << "<text x='" << left << "' y='24' font-size='15'>" << xml(p.title) << "</text>\n";
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
    << "<text x='" << left + pw / 2 << "' y='" << p.height - 18 << "' text-anchor='middle'>" << xml(p.x.label)
    << "</text>\n"
    << "<text x='20' y='" << top + ph / 2 << "' text-anchor='middle' transform='rotate(-90 20 " << top + ph / 2
    << ")'>" << xml(p.y.label) << "</text>\n";

  std::size_t k = 0;
  for (const auto& ser : p.series) {
    const char* color = kPalette[k % (sizeof kPalette / sizeof *kPalette)];
    std::ostringstream pts;
    std::size_t n = 0;
    for (std::size_t i = 0; i < std::min(ser.x.size(), ser.y.size()); ++i) {
      if (!drawable(ser.x[i], ser.y[i], p)) continue;
      if (ser.points)
        s << "<circle cx='" << num(fx(ser.x[i])) << "' cy='" << num(fy(ser.y[i])) << "' r='3' fill='" << color << "'/>\n";
      pts << num(fx(ser.x[i])) << "," << num(fy(ser.y[i])) << " ";
      ++n;
    }
    if (!ser.points && n > 0)
      s << "<polyline fill='none' stroke='" << color << "' stroke-width='2'" << (ser.dashed ? " stroke-dasharray='6 4'" : "")
        << " points='" << pts.str() << "'/>\n";
    const double ly = top + 14 + 20 * static_cast<double>(k);
    const double lx = left + pw + 14;
    if (ser.points)
      s << "<circle cx='" << lx + 12 << "' cy='" << ly - 4 << "' r='3' fill='" << color << "'/>\n";
    else
      s << "<line x1='" << lx << "' y1='" << ly - 4 << "' x2='" << lx + 24 << "' y2='" << ly - 4 << "' stroke='" << color
        << "' stroke-width='2'" << (ser.dashed ? " stroke-dasharray='6 4'" : "") << "/>\n";
    s << "<text x='" << lx + 30 << "' y='" << ly << "'>" << xml(ser.name) << "</text>\n";
    ++k;
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace dpl::plotting
