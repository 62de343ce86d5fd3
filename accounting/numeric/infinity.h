// SPDX-License-Identifier: Apache-2.0
// The binary64 infinity, as the bounds and supports of the accountants spell it.
#pragma once

#include <limits>

namespace dpl {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace dpl
