// SPDX-License-Identifier: Apache-2.0
// e^x enclosed in binary64 interval arithmetic without MPFR (a 53-bit MPFR exp costs ~1 us; this ~0.2 us): the
// fast certified RDP path calls it a few hundred times per fractional order (docs/rdp_double_precision.md, sec. 2).
#pragma once

#include "accounting/rdp/rdp_double_interval.h"

namespace dpl {

// An enclosure of e^x for a binary64 point x (relative width a few ulps): x = k ln 2 + r with k = round(x/ln 2),
// ln 2 split as L1 + L2 (L1 with 32 significant bits, so k L1 is exact for |k| < 2^21; L2 enclosed by MPFR once),
// e^r by its Taylor polynomial of degree 13 with the Lagrange remainder, |r| <= 0.35, then scaled by 2^k.
DoubleInterval exp_enclosure(double x);

}  // namespace dpl
