// SPDX-License-Identifier: Apache-2.0
// The default text of a `calibrate` result, shared by the command and the Python package's str(): the value found
// (as the decimal that reads back as it), the certified epsilon there, the search's other end, the accountant; with
// --verbose also its method.
#pragma once

#include "accounting/calibration/calibrate.h"

#include <string>

namespace dpl::presentation {

std::string calibrate_text(const CalibrationResult& r, double epsilon, double delta, bool verbose);

}  // namespace dpl::presentation
