#define _POSIX_C_SOURCE 200809L
/* rsv_bench_candidate / rsv_bench_baseline — the benchmark harness
 * (WORKLOADS.md §2, §6). One source, compiled once per side (side.h).
 *
 *   rsv_bench_<side> [options] DIR RECORDS TRIALS LOOPS     (reference: DIR 32768 5 4)
 *
 * Options:
 *   --only PATTERN   run only workloads whose name matches the fnmatch(3)
 *                    pattern (repeatable: any match selects)
 *   --batch          add the counts/<case>/batch variants
 *   --extra          add the non-normative workloads (crc32c, <fixture>/scan,
 *                    <fixture>/merge-n4, -n8); --crc32c is an alias
 *   --multicode      add the non-normative multi-code fixture prefix-6-c4
 *                    (frames, cursor, records, merges; candidate side only)
 *   --out FILE       CSV to FILE instead of stdout
 *   --list           print the selected workload names and exit
 *
 * Protocol per workload: untimed prepare (generation, encoding, verification),
 * one untimed body run for the reference checksum, then trial 0 (warmup) and
 * trials 1..T, each `loops` body runs back to back with a compiler barrier
 * before each, timed with CLOCK_MONOTONIC. Each trial's summed checksum must
 * equal loops × reference or the process aborts. Medians go to stderr; the
 * CSV rows (stdout or --out) are the raw observations. */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mix.h"
#include "report.h"
#include "side.h"
#include "timing.h"
#include "workload.h"

#ifdef RSV_BENCH_ALLOC_COUNT
#include "alloc_count.h"
#endif

/* Execution order of WORKLOADS.md §5; KV03 modules go after counts. */
static const rsv_bench_module *const k_modules[] = {
    &rsv_bench_counts_module,
    &rsv_bench_kv03_module,
    &rsv_bench_crc32c_module,
};

#define MAX_ONLY 32

typedef struct options {
    rsv_bench_params p;
    const char *only[MAX_ONLY];
    unsigned nonly;
    int batch, crc32c, multicode, list;
    const char *out;
} options;

void rsv_bench_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rsv_bench_" RSV_BENCH_SIDE_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [--only PATTERN]... [--batch] [--extra] [--multicode] [--out FILE] [--list]\n"
            "       DIR RECORDS TRIALS LOOPS      (reference run: DIR 32768 5 4)\n"
            "RECORDS >= 16, TRIALS >= 1, LOOPS >= 1. Side: " RSV_BENCH_SIDE_NAME ".\n",
            argv0);
}

/* Strict decimal u64: digits only, no sign, no overflow. */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!*s) return 0;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

static int parse_args(int argc, char **argv, options *o)
{
    const char *pos[4];
    int npos = 0;
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--only") == 0 && i + 1 < argc) {
            if (o->nonly == MAX_ONLY) return 0;
            o->only[o->nonly++] = argv[++i];
        } else if (strcmp(a, "--out") == 0 && i + 1 < argc) {
            o->out = argv[++i];
        } else if (strcmp(a, "--batch") == 0) {
            o->batch = 1;
        } else if (strcmp(a, "--crc32c") == 0 || strcmp(a, "--extra") == 0) {
            o->crc32c = 1;
        } else if (strcmp(a, "--multicode") == 0) {
            o->multicode = 1;
        } else if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (a[0] == '-' && a[1] == '-') {
            return 0;
        } else {
            if (npos == 4) return 0;
            pos[npos++] = a;
        }
    }
    if (npos != 4) return 0;
    uint64_t r, t, l;
    if (!parse_u64(pos[1], &r) || !parse_u64(pos[2], &t) || !parse_u64(pos[3], &l)) return 0;
    /* WORKLOADS.md §2: reject R < 16, T = 0, loops = 0. V = 8R must fit. */
    if (r < 16 || r > UINT64_MAX / 8 || t == 0 || t > 100000 || l == 0 || l > 1000000) return 0;
    o->p.dir = pos[0];
    o->p.records = r;
    o->p.values = 8 * r;
    o->p.trials = (unsigned)t;
    o->p.loops = (unsigned)l;
    return 1;
}

static int selected(const options *o, const rsv_bench_spec *s)
{
    unsigned kind = s->kind & RSV_BENCH_KIND_MASK;
    if (kind == RSV_BENCH_BATCH && !o->batch) return 0;
    if (kind == RSV_BENCH_EXTRA && !o->crc32c) return 0;
    if (kind == RSV_BENCH_MULTICODE && !o->multicode) return 0;
    if (o->nonly == 0) return 1;
    for (unsigned i = 0; i < o->nonly; i++)
        if (fnmatch(o->only[i], s->name, 0) == 0) return 1;
    return 0;
}

static int ensure_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
    return mkdir(dir, 0777);
}

typedef struct alloc_tally {
    uint64_t events; /* allocation events inside timed loops, all workloads */
    unsigned workloads;
    unsigned dirty;  /* workloads with at least one */
} alloc_tally;

#ifdef RSV_BENCH_ALLOC_COUNT
/* Proves the interposer is live: a call through a volatile pointer (so the
 * compiler cannot elide the pair) must move the counter by exactly one. */
static void alloc_selftest(void)
{
    void *(*volatile m)(size_t) = malloc;
    void (*volatile f)(void *) = free;
    uint64_t before = rsv_bench_alloc_events();
    void *p = m(16);
    f(p);
    if (rsv_bench_alloc_events() != before + 1)
        rsv_bench_fail("allocation interposer is not active: counts would be meaningless");
}
#endif

/* The timing protocol of WORKLOADS.md §6 for one prepared workload. */
static void run_workload(const options *o, const rsv_bench_spec *s, const rsv_bench_workload *w,
                         FILE *csv, alloc_tally *tally)
{
    unsigned loops = o->p.loops / s->loops_div;
    if (loops == 0) loops = 1;
    uint64_t ref = w->body(w->state); /* untimed reference run */
    uint64_t want = ref * loops;      /* wraps mod 2^64 like the sums */
    double *ns = malloc(o->p.trials * sizeof *ns);
    if (!ns) rsv_bench_fail("out of memory");
    uint64_t allocs = 0;
    (void)allocs;
    for (unsigned t = 0; t <= o->p.trials; t++) {
        uint64_t sum = 0;
#ifdef RSV_BENCH_ALLOC_COUNT
        uint64_t a0 = rsv_bench_alloc_events();
#endif
        uint64_t t0 = rsv_bench_now_ns();
        for (unsigned l = 0; l < loops; l++) {
            RSV_BENCH_BARRIER();
            sum += w->body(w->state);
        }
        RSV_BENCH_BARRIER();
        uint64_t dt = rsv_bench_now_ns() - t0;
#ifdef RSV_BENCH_ALLOC_COUNT
        allocs += rsv_bench_alloc_events() - a0;
#endif
        if (sum != want)
            rsv_bench_fail("%s trial %u: checksum %llu != loops x reference %llu", s->name, t,
                           (unsigned long long)sum, (unsigned long long)want);
        double per = (double)dt / ((double)w->items * loops);
        rsv_bench_report_row(csv, s->name, t > 0, t, w->items, w->bits, loops, per, sum);
        if (t > 0) ns[t - 1] = per;
    }
    double med = rsv_bench_median(ns, o->p.trials);
    fprintf(stderr, "%-9s %-28s %10.3f ns/item  (median of %u)\n", RSV_BENCH_SIDE_NAME, s->name, med,
            o->p.trials);
#ifdef RSV_BENCH_ALLOC_COUNT
    /* allocs,<side>,<workload>,<events>,<gated|reported>,<events per body run> */
    int gated = !(s->kind & RSV_BENCH_ALLOCS_REPORTED);
    fprintf(stderr, "allocs,%s,%s,%llu,%s,%.2f\n", RSV_BENCH_SIDE_NAME, s->name, (unsigned long long)allocs,
            gated ? "gated" : "reported", (double)allocs / ((double)(o->p.trials + 1) * loops));
    if (gated) {
        tally->events += allocs;
        tally->dirty += allocs != 0;
    }
#endif
    tally->workloads++;
    free(ns);
}

int main(int argc, char **argv)
{
    options o;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout, argv[0]);
        return 0;
    }
    if (!parse_args(argc, argv, &o)) {
        usage(stderr, argv[0]);
        return 2;
    }
    if (!rsv_bench_mix_selftest()) rsv_bench_fail("mix() does not reproduce WORKLOADS.md §1");
    if (o.list) {
        for (size_t m = 0; m < sizeof k_modules / sizeof k_modules[0]; m++)
            for (unsigned i = 0; i < k_modules[m]->nspecs; i++)
                if (selected(&o, &k_modules[m]->specs[i])) puts(k_modules[m]->specs[i].name);
        return 0;
    }
    if (ensure_dir(o.p.dir) != 0) {
        fprintf(stderr, "%s: cannot use DIR %s: %s\n", argv[0], o.p.dir, strerror(errno));
        return 2;
    }
#ifdef RSV_BENCH_ALLOC_COUNT
    alloc_selftest();
#endif
    FILE *csv = rsv_bench_report_open(o.out);
    if (!csv) {
        fprintf(stderr, "%s: cannot create %s: %s\n", argv[0], o.out, strerror(errno));
        return 2;
    }
    alloc_tally tally = {0, 0, 0};
    for (size_t m = 0; m < sizeof k_modules / sizeof k_modules[0]; m++) {
        const rsv_bench_module *mod = k_modules[m];
        void *ms = NULL;
        int opened = 0;
        for (unsigned i = 0; i < mod->nspecs; i++) {
            const rsv_bench_spec *s = &mod->specs[i];
            if (!selected(&o, s)) continue;
            if (!opened && mod->open && mod->open(&o.p, &ms) != 0)
                rsv_bench_fail("module %s: setup failed", mod->name);
            opened = 1;
            rsv_bench_workload w;
            memset(&w, 0, sizeof w);
            if (s->prepare(&o.p, ms, s->arg, &w) != 0) rsv_bench_fail("%s: setup failed", s->name);
            run_workload(&o, s, &w, csv, &tally);
            w.teardown(w.state);
        }
        if (opened && mod->close) mod->close(ms);
    }
    if (rsv_bench_report_close(csv) != 0) {
        fprintf(stderr, "%s: writing the CSV failed\n", argv[0]);
        return 1;
    }
    if (tally.workloads == 0) {
        fprintf(stderr, "%s: no workload selected\n", argv[0]);
        return 2;
    }
#ifdef RSV_BENCH_ALLOC_COUNT
    if (tally.dirty) {
        fprintf(stderr, "ZERO-ALLOCATION CHECK FAILED: %u of %u gated workloads allocated %llu times "
                        "inside timed loops\n", tally.dirty, tally.workloads, (unsigned long long)tally.events);
        return 3;
    }
    fprintf(stderr, "zero-allocation check passed: %u workloads, 0 heap allocations in the timed loops "
                    "of every gated workload\n", tally.workloads);
#endif
    return 0;
}
