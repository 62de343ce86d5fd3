# SPDX-License-Identifier: Apache-2.0
# Writes OUT, the definition of dpl::cli::build_version(): "VERSION (commit <git describe>)". Run by the build at
# every build (cmake -P), so the commit is the one built, not the one configured; the file is rewritten only when
# its text changes, so an unchanged commit recompiles nothing.
#   cmake -DSOURCE_DIR=... -DOUT=... -DVERSION=... [-DGIT=git] -P write_version.cmake
set(commit "unknown commit")
if(GIT AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
                  OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE result)
  if(result EQUAL 0 AND describe)
    set(commit "commit ${describe}")
  endif()
endif()
set(text "// Written by cmake/write_version.cmake at build time.\nnamespace dpl::cli {\nconst char* build_version() { return \"${VERSION} (${commit})\"; }\n}  // namespace dpl::cli\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
