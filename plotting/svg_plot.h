// SPDX-License-Identifier: Apache-2.0
// Line charts as SVG text (no dependency): axes with units, linear or log10 scales, tick labels as the shortest
// decimals of round values (never 0.30000000000000004), a legend, and series drawn as lines or points. Used by
// every `--plot`/`--curve` option of the CLI and by audit/'s pictures; the caller writes the string to a file.
#pragma once

#include <string>
#include <vector>

namespace dpl::plotting {

struct PlotSeries {
  std::string name;                 // legend entry
  std::vector<double> x, y;         // same length; non-finite points (and <= 0 on a log axis) are skipped
  bool dashed = false;
  bool points = false;              // markers instead of a line (e.g. measured values)
};

// A band around series `series` (e.g. one standard deviation over seeds): a translucent area of the series' colour
// between lo and hi at the series' x (same length); points where either end is not drawable are left out.
struct PlotBand {
  std::size_t series = 0;
  std::vector<double> lo, hi;
};

// A horizontal reference line across the plot area (e.g. the optimum, the zero model), dashed grey, labelled.
struct PlotLine {
  std::string label;
  double y = 0;
};

struct PlotAxis {
  std::string label;                // with units, e.g. "steps" or "delta (log scale)"
  bool log = false;                 // log10 scale
  bool integer = false;             // counts: ticks at integers only (never 0.5 runs)
};

struct Plot {
  std::string title;
  PlotAxis x, y;
  std::vector<PlotSeries> series;
  int width = 760, height = 460;
  std::vector<PlotLine> lines;
  std::vector<PlotBand> bands;
  // x values the axis must include (e.g. the iterations of a panel above, so that stacked panels share their x
  // range even when this one has a single point).
  std::vector<double> x_extent;
};

// The SVG document. Throws InputError if no series has a drawable point.
std::string render_svg(const Plot& plot);
// Several plots (each of its own width and height) in one SVG, `columns` per row, under a common title and
// optional note lines at the bottom. Throws InputError as render_svg for any panel.
std::string render_svg_grid(const std::vector<Plot>& panels, const std::string& title, int columns,
                            const std::vector<std::string>& notes = {});

// Round tick positions for [lo, hi] (about `target` of them) and their labels, shortest decimals.
struct Ticks {
  std::vector<double> at;
  std::vector<std::string> labels;
};
Ticks linear_ticks(double lo, double hi, int target = 6, bool integer = false);  // integer: steps of at least 1
// lo, hi > 0: powers of ten (and 2, 5 when few); all labels in one notation (100, 1000 or 1e5, 1e6, never mixed).
Ticks log_ticks(double lo, double hi, int target = 6);

// The shortest decimal of m * 10^e for an integer m (exact: no binary noise), e.g. (3, -1) -> "0.3".
std::string decimal_label(long long m, int e);

}  // namespace dpl::plotting
