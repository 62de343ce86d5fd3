// The CLI's names for the SVG chart writer of plotting/ (every --plot/--curve option draws with it).
#pragma once

#include "plotting/svg_plot.h"

namespace dpl::cli {

using plotting::decimal_label;
using plotting::linear_ticks;
using plotting::log_ticks;
using plotting::Plot;
using plotting::PlotAxis;
using plotting::PlotSeries;
using plotting::render_svg;
using plotting::Ticks;

}  // namespace dpl::cli
