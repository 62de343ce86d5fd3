# SPDX-License-Identifier: Apache-2.0
# `cmake --install`: the dpledger executable, its man page and bash completion, the shipped data, and the
# accounting library with its headers and a CMake package, so that another project can
#   find_package(dpledger REQUIRED)  and  target_link_libraries(app PRIVATE dpledger::accounting)
# `cpack -G DEB` (from the build folder) makes a Debian package of the same files.
include(CMakePackageConfigHelpers)
# `cmake --install` and cpack install what is built; they do not rebuild the tests and benchmarks first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

install(TARGETS dpledger RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${DPLEDGER_GENERATED}/man/man1/dpledger.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${DPLEDGER_GENERATED}/bash-completion/completions/dpledger
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${CMAKE_SOURCE_DIR}/data/breast_cancer.csv ${CMAKE_SOURCE_DIR}/data/digits.csv ${CMAKE_SOURCE_DIR}/data/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dpledger/data)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# The packages' maintainer (Maintainer field, changelog): -DDPLEDGER_DEB_MAINTAINER="Name <address>", else Debian's
# DEBFULLNAME and DEBEMAIL (as dch reads them). Without either the address is on localhost, which lintian refuses
# (bogus-mail-host): a distributor names a real one.
# It is set before the changelog is written, which names it too.
set(dpl_deb_maintainer "dpledger developers <dpledger@localhost>")
if(DEFINED ENV{DEBEMAIL} AND NOT "$ENV{DEBEMAIL}" STREQUAL "")
  if("$ENV{DEBEMAIL}" MATCHES "<.*>")  # dch also accepts DEBEMAIL="Name <address>"
    set(dpl_deb_maintainer "$ENV{DEBEMAIL}")
  elseif(NOT "$ENV{DEBFULLNAME}" STREQUAL "")
    set(dpl_deb_maintainer "$ENV{DEBFULLNAME} <$ENV{DEBEMAIL}>")
  else()
    set(dpl_deb_maintainer "dpledger developers <$ENV{DEBEMAIL}>")
  endif()
endif()
set(DPLEDGER_DEB_MAINTAINER "${dpl_deb_maintainer}" CACHE STRING "Maintainer of the Debian packages: Name <address>")
if(NOT DPLEDGER_DEB_MAINTAINER MATCHES "^[^<>]+ <[^<>@ ]+@[^<> ]+>$")
  message(FATAL_ERROR "DPLEDGER_DEB_MAINTAINER must read 'Name <address>', not '${DPLEDGER_DEB_MAINTAINER}'")
endif()
# Debian's copyright file of each package (/usr/share/doc/PACKAGE/copyright) and its changelog (changelog.gz, as a
# native package's: the version has no Debian revision), compressed as Debian's policy asks (gzip -9n).
install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian_copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/dpledger RENAME copyright)
find_program(GZIP_EXECUTABLE gzip REQUIRED)
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian_changelog.in ${CMAKE_BINARY_DIR}/debian/changelog @ONLY)
execute_process(COMMAND ${GZIP_EXECUTABLE} -9nf ${CMAKE_BINARY_DIR}/debian/changelog)
set(DPLEDGER_DEB_CHANGELOG ${CMAKE_BINARY_DIR}/debian/changelog.gz)
install(FILES ${DPLEDGER_DEB_CHANGELOG} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/dpledger)
# lintian overrides, each with its reason in the file (the static numeric libraries; the non-multiarch .pc)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/lintian_overrides_dpledger DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME dpledger)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/lintian_overrides_libdpledger-dev
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME libdpledger-dev COMPONENT dev)

# The library: dpledger::accounting (static, or shared with DPLEDGER_SHARED; its headers under
# include/dpledger/accounting/, included as <dpledger/accounting/...>), the install component `dev` (the .deb
# libdpledger-dev, which needs the -dev packages of its dependencies; the command needs none), with a CMake package
# and a pkg-config file (dpledger.pc).
install(TARGETS dpl_accounting dpl_warnings EXPORT dpledgerTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
# dpledger.pc names the prefix installed to (given to `cmake --install --prefix` or by cpack), so it is written then.
set(DPLEDGER_PC_PREFIX "@PREFIX@")
configure_file(${CMAKE_SOURCE_DIR}/cmake/dpledger.pc.in ${CMAKE_BINARY_DIR}/dpledger.pc.template @ONLY)
install(CODE "
  file(READ \"${CMAKE_BINARY_DIR}/dpledger.pc.template\" dpl_pc)
  string(REPLACE \"@PREFIX@\" \"\${CMAKE_INSTALL_PREFIX}\" dpl_pc \"\${dpl_pc}\")
  file(WRITE \"${CMAKE_BINARY_DIR}/dpledger.pc\" \"\${dpl_pc}\")
" COMPONENT dev)
install(FILES ${CMAKE_BINARY_DIR}/dpledger.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/accounting/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dpledger/accounting
        COMPONENT dev FILES_MATCHING PATTERN "*.h")
install(EXPORT dpledgerTargets NAMESPACE dpledger:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpledger COMPONENT dev)
install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian_copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libdpledger-dev
        RENAME copyright COMPONENT dev)
install(FILES ${DPLEDGER_DEB_CHANGELOG} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libdpledger-dev COMPONENT dev)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/dpledgerConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/dpledgerConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpledger)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dpledgerConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dpledgerConfig.cmake ${CMAKE_BINARY_DIR}/dpledgerConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dpledger COMPONENT dev)

# Debian packages (Debian 12), one per install component:
#   dpledger          the command, its man page, completion, data and docs (run-time libraries found by
#                     dpkg-shlibdeps: libc6 alone with the static GMP/MPFR/MPFI/FFTW and libstdc++ of DPLEDGER_STATIC_CLI);
#   libdpledger-dev   dpledger::accounting for C++ projects: the static library, headers and CMake package, with the
#                     -dev packages its CMake package finds (dpledgerConfig.cmake.in);
#   python3-dpledger  the Python module, when it is built (python/CMakeLists.txt).
set(CPACK_PACKAGE_NAME dpledger)
set(CPACK_PACKAGE_VENDOR "dpledger developers")
set(CPACK_PACKAGE_CONTACT "${DPLEDGER_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "certified differential-privacy accounting and audits")
set(CPACK_STRIP_FILES ON)  # Debian ships stripped executables and shared objects
set(CPACK_COMPONENT_UNSPECIFIED_DESCRIPTION
    "dpledger composes differential-privacy budgets with certified bounds
(interval arithmetic, every derived number rounded on the safe side),
calibrates noise, audits mechanisms and training runs empirically, and
runs the algorithms of five papers on private distributed optimisation
with their claimed and accounted privacy.
This package holds the command line, its manual page, bash completion,
data and documentation.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_SOURCE_DIR}/LICENSE)  # Apache-2.0; each .deb names it in its copyright file
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified dev)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME dpledger)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libdpledger-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_SHLIBDEPS OFF)  # a static archive and headers: no shared object to scan
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libboost-dev (>= 1.74), nlohmann-json3-dev, libmpfr-dev, libgmp-dev, libmpfi-dev, libfftw3-dev, pkg-config")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS dpledger)
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "The C++ library of dpledger's certified accountants
(dpledger::accounting): the static library, its headers
(#include <dpledger/accounting/...>), a CMake package (find_package(dpledger))
and a pkg-config file (dpledger.pc).")
if(DPLEDGER_PYTHON_DEB_DEPENDS)
  list(APPEND CPACK_COMPONENTS_ALL python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-dpledger)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "${DPLEDGER_PYTHON_DEB_DEPENDS}")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS dpledger)  # the command line; the -dev packages are for C++ users
  set(CPACK_COMPONENT_PYTHON_DESCRIPTION
      "The Python package dpledger: dpledger's certified accountants
in-process, with drop-in accountants for dp_accounting and Opacus.")
  install(FILES ${CMAKE_SOURCE_DIR}/cmake/debian_copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/python3-dpledger
          RENAME copyright COMPONENT python)
  install(FILES ${DPLEDGER_DEB_CHANGELOG} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/python3-dpledger COMPONENT python)
endif()
include(CPack)
