// SPDX-License-Identifier: Apache-2.0
// The RDP curves of the mechanisms of accounting/mechanisms/extended_mechanisms.h (and rr in dp_accounting's (p, k)
// form), unsampled; make_rdp_curve applies the q modifiers as for the first six. docs/mechanisms.md lists them.
#pragma once

#include "accounting/rdp/rdp_curve.h"

#include <memory>

namespace dpl {

bool has_extended_rdp_curve(const Mechanism& m);
// Throws NotApplicable where no RDP curve is known (shuffle, mixture), naming what applies instead.
std::unique_ptr<RdpCurve> extended_rdp_curve(const Mechanism& m);

}  // namespace dpl
