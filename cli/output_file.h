// Writing output files (CSV, SVG, traces) without ever leaving a partial file behind.
#pragma once

#include <string>

namespace dpl::cli {

// Writes through a temporary file renamed at the end; throws InputError naming the path if it cannot.
void write_atomically(const std::string& path, const std::string& content);

}  // namespace dpl::cli
