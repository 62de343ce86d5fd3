// SPDX-License-Identifier: Apache-2.0
// Calibrating the noise of DP-SGD with the C++ library: the smallest noise multiplier sigma for which 30 epochs at
// batch 256 of 60,000 records (q = 256/60000, steps = ceil(30/q) = 7032) stay within epsilon 3 at delta 1e-5, as
//   dpledger calibrate -m gaussian:sigma=?,q=256/60000,epochs=30 --epsilon 3 --delta 1e-5 --accountant rdp
// prints it. The answer is certified: the composition at that sigma has epsilon <= 3.
#include <dpledger/accounting/calibration/calibrate.h>
#include <dpledger/accounting/numeric/decimal.h>

#include <iostream>

int main() {
  const dpl::CalibrationResult c =
      dpl::calibrate({"gaussian:sigma=?,q=256/60000,epochs=30"}, 3.0, 1e-5, dpl::AccountantKind::rdp, 0);
  std::cout << c.parameter << " " << dpl::format_target(c.value) << " (epsilon "
            << dpl::format_upper(c.at_value.epsilon) << ", " << c.evaluations << " evaluations)\n";
  return 0;
}
