// SPDX-License-Identifier: Apache-2.0
// The SVG of a swept paper figure (algorithms/sweeps/figure.h): its panels side by side with one-standard-deviation
// bands over seeds, reference lines and the figure's notes, through plotting/.
#pragma once

#include "algorithms/sweeps/figure.h"

#include <string>

namespace dpl::cli {

std::string sweep_svg(const algorithms::sweeps::Figure& f);

}  // namespace dpl::cli
