// SPDX-License-Identifier: Apache-2.0
#include "cli/sweep_plot.h"

#include "plotting/svg_plot.h"

#include <algorithm>

namespace dpl::cli {

std::string sweep_svg(const algorithms::sweeps::Figure& f) {
  std::vector<plotting::Plot> panels;
  for (const auto& p : f.panels) {
    plotting::Plot plot;
    plot.title = p.title;
    plot.x = {p.x_label, p.log_x};
    plot.y = {p.y_label, p.log_y};
    plot.width = f.columns == 1 ? 980 : 760;
    plot.height = 460;
    for (const auto& c : p.curves) {
      plotting::PlotSeries s;
      s.name = c.name;
      s.x = c.x;
      s.y = c.mean;
      s.dashed = c.dashed;
      s.points = c.points;
      if (c.seeds > 1) {
        plotting::PlotBand b;
        b.series = plot.series.size();
        for (std::size_t i = 0; i < c.mean.size(); ++i) {
          b.lo.push_back(c.mean[i] - c.sd[i]);
          b.hi.push_back(c.mean[i] + c.sd[i]);
        }
        plot.bands.push_back(b);
      }
      plot.series.push_back(s);
    }
    for (const auto& r : p.references) plot.lines.push_back({r.label, r.y});
    panels.push_back(plot);
  }
  return plotting::render_svg_grid(panels, f.title, f.columns, f.notes);
}

}  // namespace dpl::cli
