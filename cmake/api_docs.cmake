# SPDX-License-Identifier: Apache-2.0
# `cmake --build build --target docs`: the C++ API reference of the installed library (Doxygen, Debian's doxygen
# package), one page per public header (accounting/**.h, installed as <dpledger/accounting/...>) with the worked
# examples of examples/cpp/, into build/docs/api/html/index.html. The headers' plain // comments are read as
# Doxygen comments (docs/api/doxygen_filter.py), so the reference is what the headers say.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "API reference (target docs) not available: install doxygen")
  return()
endif()
set(DOXYGEN_PROJECT_NAME dpledger)
set(DOXYGEN_PROJECT_NUMBER ${PROJECT_VERSION})
set(DOXYGEN_PROJECT_BRIEF "Certified differential-privacy accounting: the C++ API")
set(DOXYGEN_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/docs/api)
set(DOXYGEN_GENERATE_LATEX NO)
set(DOXYGEN_EXTRACT_ALL YES)
set(DOXYGEN_EXTRACT_STATIC YES)
set(DOXYGEN_RECURSIVE YES)
set(DOXYGEN_FILE_PATTERNS *.h *.md)
set(DOXYGEN_INPUT_FILTER ${CMAKE_SOURCE_DIR}/docs/api/doxygen_filter.py)
set(DOXYGEN_FULL_PATH_NAMES YES)
set(DOXYGEN_STRIP_FROM_PATH ${CMAKE_SOURCE_DIR})
set(DOXYGEN_STRIP_FROM_INC_PATH ${CMAKE_SOURCE_DIR})
set(DOXYGEN_EXAMPLE_PATH ${CMAKE_SOURCE_DIR}/examples/cpp)
set(DOXYGEN_USE_MDFILE_AS_MAINPAGE ${CMAKE_SOURCE_DIR}/docs/api/mainpage.md)
set(DOXYGEN_WARN_IF_UNDOCUMENTED NO)
set(DOXYGEN_WARN_AS_ERROR NO)
set(DOXYGEN_QUIET YES)
set(DOXYGEN_SORT_MEMBER_DOCS NO)
set(DOXYGEN_MARKDOWN_SUPPORT YES)
doxygen_add_docs(docs ${CMAKE_SOURCE_DIR}/docs/api/mainpage.md ${CMAKE_SOURCE_DIR}/accounting
                 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                 COMMENT "API reference: ${CMAKE_BINARY_DIR}/docs/api/html/index.html")
