# ctest registrations of the fuzzing pipeline's own tests (docs/fuzzing.md):
#   fuzz_selftest_libfuzzer  (label fuzz-selftest)      libFuzzer finds the planted bug
#   fuzz_selftest_afl        (label fuzz-selftest-afl)  AFL++ finds it (skipped: exit 77
#                                                       when afl-clang-fast is missing)
#   fuzz_oss_fuzz_build      (label fuzz)               fuzz/oss_fuzz_build.sh in an
#                                                       emulated OSS-Fuzz environment
# They build their own binaries with clang, so only clang builds of the replay
# or libfuzzer engines register them; MSan builds skip them (they test the
# fuzzing pipeline, which does not change under MSan, and would only add time).
# planted_bug.c is compiled by fuzz/fuzz itself, never by this project.
if(NOT BUILD_TESTING OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang"
   OR NOT RSV_FUZZ_ENGINE MATCHES "^(replay|libfuzzer)$" OR CMAKE_C_FLAGS MATCHES "sanitize=memory")
  return()
endif()

find_program(RSV_BASH bash REQUIRED)
set(_rsv_st_env RSV_FUZZ_BUILD_ROOT=${CMAKE_CURRENT_BINARY_DIR}/selftest CC_CLANG=${CMAKE_C_COMPILER})

add_test(NAME fuzz_selftest_libfuzzer
  COMMAND ${CMAKE_COMMAND} -E env ${_rsv_st_env}
          ${RSV_BASH} ${PROJECT_SOURCE_DIR}/fuzz/fuzz selftest --engine libfuzzer --seconds 60)
set_tests_properties(fuzz_selftest_libfuzzer PROPERTIES LABELS "fuzz-selftest" TIMEOUT 120)

add_test(NAME fuzz_selftest_afl
  COMMAND ${CMAKE_COMMAND} -E env ${_rsv_st_env}
          ${RSV_BASH} ${PROJECT_SOURCE_DIR}/fuzz/fuzz selftest --engine afl --seconds 60)
set_tests_properties(fuzz_selftest_afl PROPERTIES LABELS "fuzz-selftest-afl" TIMEOUT 150
  SKIP_RETURN_CODE 77)

add_test(NAME fuzz_oss_fuzz_build
  COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
          RSV_OSS_FUZZ_CHECK_DIR=${CMAKE_CURRENT_BINARY_DIR}/oss-fuzz-check
          ${RSV_BASH} ${PROJECT_SOURCE_DIR}/fuzz/oss_fuzz_check.sh)
set_tests_properties(fuzz_oss_fuzz_build PROPERTIES LABELS "fuzz" TIMEOUT 900 RUN_SERIAL TRUE)
