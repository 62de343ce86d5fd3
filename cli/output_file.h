// Writing output files (CSV, SVG, traces) without ever leaving a partial file behind.
#pragma once

#include <string>

namespace dpl::cli {

// Writes through a temporary file renamed at the end; throws InputError naming the path if it cannot. The file
// carries its provenance (stamp_file in cli/provenance.h).
void write_atomically(const std::string& path, const std::string& content);

}  // namespace dpl::cli
