// C ABI over the sdsl-lite pieces the peer benchmark needs (bench/peers only):
// coder::elias_gamma over an int_vector bit stream, and sd_vector select
// (sdsl's Elias–Fano bit vector). Values are built once (untimed); the
// decode/select calls are what the peer's timed bodies run.
#include <sdsl/coder_elias_gamma.hpp>
#include <sdsl/int_vector.hpp>
#include <sdsl/sd_vector.hpp>

#include <cstdint>
#include <new>

#include "sdsl_shim.h"

struct sdsl_gamma {
    sdsl::int_vector<> z;
};

struct sdsl_sd {
    sdsl::sd_vector<> v;
    sdsl::sd_vector<>::select_1_type sel;
};

extern "C" sdsl_gamma *sdsl_gamma_new(const uint64_t *vals, size_t n)
{
    auto *g = new (std::nothrow) sdsl_gamma;
    if (!g) return nullptr;
    sdsl::int_vector<> v(n, 0, 64);
    for (size_t i = 0; i < n; i++) v[i] = vals[i] + 1; // gamma(v + 1) = EG0(v)
    sdsl::coder::elias_gamma::encode(v, g->z);
    return g;
}

extern "C" uint64_t sdsl_gamma_sum(const sdsl_gamma *g, size_t n)
{
    // the generic decoder: unary length, then the binary part, per value
    return sdsl::coder::elias_gamma::decode<true, false, uint64_t *>(g->z.data(), 0, n, nullptr);
}

extern "C" uint64_t sdsl_gamma_prefix_sum(const sdsl_gamma *g, size_t n)
{
    // the table-driven bulk decoder (8-bit lookup)
    return sdsl::coder::elias_gamma::decode_prefix_sum(g->z.data(), 0, n);
}

extern "C" void sdsl_gamma_free(sdsl_gamma *g) { delete g; }

extern "C" sdsl_sd *sdsl_sd_new(const uint64_t *pos, size_t n, uint64_t universe)
{
    auto *s = new (std::nothrow) sdsl_sd;
    if (!s) return nullptr;
    sdsl::bit_vector bv(universe + 1, 0);
    for (size_t i = 0; i < n; i++) bv[pos[i]] = 1;
    s->v = sdsl::sd_vector<>(bv);
    s->sel = sdsl::sd_vector<>::select_1_type(&s->v);
    return s;
}

extern "C" uint64_t sdsl_sd_select_sum(const sdsl_sd *s, const uint64_t *q, size_t nq)
{
    uint64_t sum = 0;
    for (size_t j = 0; j < nq; j++) sum += s->sel(q[j] + 1); // select_1 is 1-based
    return sum;
}

extern "C" void sdsl_sd_free(sdsl_sd *s) { delete s; }
