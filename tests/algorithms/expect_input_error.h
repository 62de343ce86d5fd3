// SPDX-License-Identifier: Apache-2.0
// Expects a call to throw dpl::InputError whose message contains every given fragment (key, value, range...).
#pragma once

#include "accounting/errors.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dpl::testing {

template <class F>
void expect_input_error(F&& f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown";
  } catch (const InputError& e) {
    const std::string m = e.what();
    for (const auto& s : fragments) EXPECT_NE(m.find(s), std::string::npos) << "'" << s << "' not in: " << m;
  }
}

}  // namespace dpl::testing
