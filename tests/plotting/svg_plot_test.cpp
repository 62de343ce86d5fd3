// SPDX-License-Identifier: Apache-2.0
// The SVG plots: one tick notation per log axis, integer ticks for counts, legend entries only for what is drawn
// (and "(= X)" for a series hidden under an earlier one), lines at the extreme x kept off the frame. Each check has
// the behaviour it replaces as a twin that it rejects.
#include "plotting/svg_plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

namespace dpl::plotting {
namespace {

bool has_exponent(const std::string& s) { return s.find('e') != std::string::npos; }

TEST(SvgPlot, LogTicksUseOneNotationPerAxis) {
  const Ticks wide = log_ticks(1e4, 1e8);
  ASSERT_GE(wide.labels.size(), 3u);
  for (const auto& l : wide.labels) EXPECT_TRUE(has_exponent(l)) << l;  // 1e4 ... 1e8, never 100000 beside 1e7
  const Ticks across = log_ticks(1e-4, 1);
  EXPECT_EQ(across.labels.back(), "1");  // 10^0 is 1 in either notation
  EXPECT_EQ(across.labels.front(), "1e-4");
  const Ticks narrow = log_ticks(0.01, 100);
  for (const auto& l : narrow.labels) EXPECT_FALSE(has_exponent(l)) << l;
  // The twin: the per-label notation mixes them on the wide axis.
  EXPECT_FALSE(has_exponent(decimal_label(1, 5)));
  EXPECT_TRUE(has_exponent(decimal_label(1, 7)));
}

TEST(SvgPlot, CountAxesTickAtIntegers) {
  const Ticks counts = linear_ticks(0, 3, 6, true);
  for (double t : counts.at) EXPECT_EQ(t, std::floor(t)) << t;
  const Ticks reals = linear_ticks(0, 3, 6, false);  // the twin: half-runs
  bool fractional = false;
  for (double t : reals.at) fractional = fractional || t != std::floor(t);
  EXPECT_TRUE(fractional);
}

TEST(SvgPlot, LegendNamesOnlyWhatIsDrawnAndSaysWhatHides) {
  Plot p;
  p.x = {"x", false};
  p.y = {"y", false};
  p.series.push_back({"first", {0, 1, 2}, {1, 2, 3}});
  p.series.push_back({"nothing to draw", {}, {}});
  p.series.push_back({"same as first", {0, 1, 2}, {1, 2, 3 * (1 + 1e-12)}});
  p.series.push_back({"other", {0, 1, 2}, {3, 2, 1}});
  const std::string svg = render_svg(p);
  EXPECT_NE(svg.find(">first<"), std::string::npos);
  EXPECT_EQ(svg.find("nothing to draw"), std::string::npos);
  EXPECT_NE(svg.find(">same as first (= first)<"), std::string::npos);
  EXPECT_NE(svg.find(">other<"), std::string::npos);
  EXPECT_EQ(svg.find("other (="), std::string::npos);
}

TEST(SvgPlot, ALineAtTheLargestXIsInsideTheFrame) {
  Plot p;
  p.x = {"epsilon", false};
  p.y = {"delta", true};
  p.series.push_back({"curve", {4, 6, 10}, {0.1, 1e-3, 1e-8}});
  p.series.push_back({"pure", {10, 10}, {0.1, 1e-8}});
  const std::string svg = render_svg(p);
  std::smatch frame;
  ASSERT_TRUE(std::regex_search(svg, frame, std::regex("<rect x='([0-9.]+)' y='[0-9.]+' width='([0-9.]+)'")));
  const double right = std::stod(frame[1]) + std::stod(frame[2]);
  std::smatch line;
  const std::string tail = svg.substr(svg.rfind("<polyline"));
  ASSERT_TRUE(std::regex_search(tail, line, std::regex("points='([0-9.]+),")));
  EXPECT_LT(std::stod(line[1]), right - 3) << "the vertical line lies on the frame";
}

}  // namespace
}  // namespace dpl::plotting
