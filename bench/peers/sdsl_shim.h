/* C view of sdsl_shim.cpp (bench/peers only). */
#ifndef RSV_BENCH_SDSL_SHIM_H
#define RSV_BENCH_SDSL_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdsl_gamma sdsl_gamma;
typedef struct sdsl_sd sdsl_sd;

/* Encodes gamma(vals[i] + 1), i.e. EG0(vals[i]) in sdsl's own bit layout. */
sdsl_gamma *sdsl_gamma_new(const uint64_t *vals, size_t n);
uint64_t sdsl_gamma_sum(const sdsl_gamma *g, size_t n);        /* Σ (vals[i] + 1) */
uint64_t sdsl_gamma_prefix_sum(const sdsl_gamma *g, size_t n); /* same, table decoder */
void sdsl_gamma_free(sdsl_gamma *g);

/* sd_vector over the strictly increasing positions pos[0..n), max = universe. */
sdsl_sd *sdsl_sd_new(const uint64_t *pos, size_t n, uint64_t universe);
uint64_t sdsl_sd_select_sum(const sdsl_sd *s, const uint64_t *q, size_t nq); /* Σ pos[q[j]] */
void sdsl_sd_free(sdsl_sd *s);

#ifdef __cplusplus
}
#endif
#endif
