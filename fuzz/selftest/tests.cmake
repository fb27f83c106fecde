# ctest registrations of the fuzzing pipeline's own tests (docs/fuzzing.md,
# "Self-tests"):
#   fuzz_selftest_libfuzzer_plant{1,2,3}  (label fuzz-selftest)
#   fuzz_selftest_afl_plant{1,2,3}        (label fuzz-selftest-afl)
#       a build of the codec with -DRSV_SELFTEST_PLANT=N (its own tree, never
#       this one) plants a divergence; reader_diff (1), kv03_parse (2) and
#       merge_diff (3) must find it without a dictionary within 60 s
#   fuzz_selftest_libfuzzer / fuzz_selftest_afl   the planted_bug.c toy
#       (sanitizer-class finding and reproduction)
#   fuzz_oss_fuzz_build      (label fuzz)  fuzz/oss_fuzz_check.sh in an
#                                          emulated OSS-Fuzz environment
#                                          (clang builds only)
# The self-tests build their own binaries with clang / afl-clang-fast, found
# here on the PATH: they are registered whatever compiler builds the project
# (gcc too) and exit 77 (skipped) when those compilers are missing. Only
# builds of the replay or libfuzzer engines register them, and not MSan
# builds (they test the fuzzing pipeline, which MSan does not change).
# Each takes at most ~2 minutes (a cold build of one target, then <= 60 s of
# fuzzing). The libFuzzer ones fuzz in one process and find their plant in
# 1-13 s, so PROCESSORS 1 lets two of them run side by side on the 2-core CI
# machine (each uses its own build tree and work directory,
# fuzz/lib/selftest.sh). The AFL++ ones stay RUN_SERIAL: AFL++ forks the
# target for every input and slows down beside another test (plant 2 ran
# 6,800 instead of ~11,000 executions per second and took 33 s of its 60 s
# budget in a CI run with them side by side, 13-15 s alone).
if(NOT BUILD_TESTING OR NOT RSV_FUZZ_ENGINE MATCHES "^(replay|libfuzzer)$"
   OR CMAKE_C_FLAGS MATCHES "sanitize=memory")
  return()
endif()

find_program(RSV_BASH bash REQUIRED)
find_program(RSV_SELFTEST_CLANG NAMES clang clang-14)
if(NOT RSV_SELFTEST_CLANG)
  set(RSV_SELFTEST_CLANG clang) # the self-test then reports SKIP (exit 77)
endif()
set(_rsv_st_env RSV_FUZZ_BUILD_ROOT=${CMAKE_CURRENT_BINARY_DIR}/selftest CC_CLANG=${RSV_SELFTEST_CLANG})

foreach(engine libfuzzer afl)
  if(engine STREQUAL "afl")
    set(_label fuzz-selftest-afl)
  else()
    set(_label fuzz-selftest)
  endif()
  foreach(plant toy 1 2 3)
    if(plant STREQUAL "toy")
      set(_name fuzz_selftest_${engine})
    else()
      set(_name fuzz_selftest_${engine}_plant${plant})
    endif()
    add_test(NAME ${_name}
      COMMAND ${CMAKE_COMMAND} -E env ${_rsv_st_env}
              ${RSV_BASH} ${PROJECT_SOURCE_DIR}/fuzz/fuzz selftest --engine ${engine} --plant ${plant} --seconds 60)
    if(engine STREQUAL "afl")
      set_tests_properties(${_name} PROPERTIES LABELS "${_label}" TIMEOUT 240 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
    else()
      set_tests_properties(${_name} PROPERTIES LABELS "${_label}" TIMEOUT 240 SKIP_RETURN_CODE 77 PROCESSORS 1)
    endif()
  endforeach()
endforeach()

# The emulated OSS-Fuzz build compiles with the project's compiler, which
# must then be clang.
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  return()
endif()
add_test(NAME fuzz_oss_fuzz_build
  COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
          RSV_OSS_FUZZ_CHECK_DIR=${CMAKE_CURRENT_BINARY_DIR}/oss-fuzz-check
          ${RSV_BASH} ${PROJECT_SOURCE_DIR}/fuzz/oss_fuzz_check.sh)
set_tests_properties(fuzz_oss_fuzz_build PROPERTIES LABELS "fuzz" TIMEOUT 900 RUN_SERIAL TRUE)
