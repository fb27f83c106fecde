# Sanitizer builds from one definition (cmake/sanitizers.env).
#
#   RSV_SANITIZE = asan-ubsan | msan | "" (none)
#
# Appends the flags to CMAKE_C_FLAGS and the linker flags (so everything built
# here, and the install test's consumer, gets them), and gives every ctest test
# the matching run-time options through rsv_sanitizer_test_env(), which each
# directory that adds tests calls at its end.
set(RSV_SANITIZE "" CACHE STRING "Sanitizer build: asan-ubsan | msan | empty for none")
set_property(CACHE RSV_SANITIZE PROPERTY STRINGS "" asan-ubsan msan)

file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/sanitizers.env _rsv_san_lines REGEX "^RSV_SAN_[A-Z_]+=")
foreach(_l IN LISTS _rsv_san_lines)
  if(_l MATCHES "^(RSV_SAN_[A-Z_]+)=(.*)$")
    set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endif()
endforeach()

set(RSV_SANITIZER_TEST_ENV "")
if(RSV_SANITIZE STREQUAL "asan-ubsan")
  set(_rsv_san_flags "${RSV_SAN_ASAN_UBSAN_FLAGS}")
  set(RSV_SANITIZER_TEST_ENV "ASAN_OPTIONS=${RSV_SAN_ASAN_OPTIONS}" "UBSAN_OPTIONS=${RSV_SAN_UBSAN_OPTIONS}")
elseif(RSV_SANITIZE STREQUAL "msan")
  set(_rsv_san_flags "${RSV_SAN_MSAN_FLAGS}")
  set(RSV_SANITIZER_TEST_ENV "MSAN_OPTIONS=${RSV_SAN_MSAN_OPTIONS}")
elseif(NOT RSV_SANITIZE STREQUAL "")
  message(FATAL_ERROR "RSV_SANITIZE='${RSV_SANITIZE}': expected asan-ubsan, msan or empty")
endif()
if(DEFINED _rsv_san_flags)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang" AND RSV_SANITIZE STREQUAL "msan")
    message(FATAL_ERROR "RSV_SANITIZE=msan needs clang")
  endif()
  string(APPEND CMAKE_C_FLAGS " ${_rsv_san_flags}")
  string(APPEND CMAKE_CXX_FLAGS " ${_rsv_san_flags}")
  foreach(_k EXE SHARED MODULE)
    string(APPEND CMAKE_${_k}_LINKER_FLAGS " ${_rsv_san_flags}")
  endforeach()
endif()

# Call at the end of a directory that adds tests: every test of that directory
# runs with the sanitizer's halt-on-first-finding options.
function(rsv_sanitizer_test_env)
  if(NOT RSV_SANITIZER_TEST_ENV)
    return()
  endif()
  get_property(_tests DIRECTORY PROPERTY TESTS)
  if(_tests)
    set_property(TEST ${_tests} APPEND PROPERTY ENVIRONMENT ${RSV_SANITIZER_TEST_ENV})
  endif()
endfunction()
