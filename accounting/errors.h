// SPDX-License-Identifier: Apache-2.0
// Error types of the libraries. Libraries never print or exit: they throw, and the CLI maps the type to an
// exit code (InputError and NotApplicable -> 2, anything else -> 1).
#pragma once

#include <stdexcept>
#include <string>

namespace dpl {

// Bad user input: the message names the parameter, the value and the allowed range.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A valid request that the chosen accountant or method cannot answer (e.g. `optimal` on a Gaussian).
class NotApplicable : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace dpl
