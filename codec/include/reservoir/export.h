/* reservoir — symbol export.
 *
 * RSV_API marks the library's public functions. The shared library is built
 * with hidden default visibility, so only RSV_API functions are exported;
 * everything else (rsv__ internals, helpers shared between translation units)
 * stays inside the library. */
#ifndef RESERVOIR_EXPORT_H
#define RESERVOIR_EXPORT_H

/* A build may predefine RSV_API (the export check, tests/abi/check_exports.sh,
 * defines it as a marker to list the declarations). */
#ifndef RSV_API
#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(RSV_BUILDING_SHARED)
#    define RSV_API __declspec(dllexport)
#  elif defined(RSV_USING_SHARED)
#    define RSV_API __declspec(dllimport)
#  else
#    define RSV_API
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define RSV_API __attribute__((visibility("default")))
#else
#  define RSV_API
#endif
#endif /* RSV_API */

#endif
