/* Replay engine: a plain main() that runs a fuzz target's
 * LLVMFuzzerTestOneInput once on each input file. It needs no fuzzing
 * runtime, so the targets build with any compiler and run as ordinary
 * regression tests (ctest fuzz_replay_<target>) or under valgrind/MSan.
 *
 * usage: <target> [-v] [--allow-empty] FILE|DIR...
 *   A directory is walked recursively (entries in name order, so runs are
 *   reproducible; names starting with '.' are skipped). Arguments of the form
 *   -flag=value are libFuzzer options: they are ignored with a note, so the
 *   same command line works with a libFuzzer build.
 *
 * Exit status: 0 when every input ran (the target aborts on a finding, so
 * reaching the end means no finding); 2 on a usage or I/O error (a missing
 * path is an error: a typo must not turn a test green); 1 when no input at
 * all was found, unless --allow-empty is given. An empty corpus almost always
 * means a wrong path, so the safe default is to fail. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Optional hooks: weak so that targets need not define them. */
#if defined(__GNUC__) || defined(__clang__)
#define RSV_WEAK __attribute__((weak))
#else
#define RSV_WEAK
#endif
int LLVMFuzzerInitialize(int *argc, char ***argv) RSV_WEAK;
/* Sanitizer runtimes call this before dying (absent without sanitizers). */
void __sanitizer_set_death_callback(void (*callback)(void)) RSV_WEAK;

static int g_verbose;
static size_t g_count;
static const char *volatile g_current; /* the input being run, for crash reports */

static void put_err(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t k = write(2, s, n);
        if (k <= 0) return;
        s += k;
        n -= (size_t)k;
    }
}

/* Name the input that crashed; async-signal-safe (write(2) only). */
static void report_current(void)
{
    const char *cur = g_current;
    if (!cur) return;
    put_err("replay: crashed on input: ");
    put_err(cur);
    put_err("\n");
}

static void on_abort(int sig)
{
    report_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "replay: out of memory reading %s\n", path);
            return -1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        fprintf(stderr, "replay: read error on %s\n", path);
        return -1;
    }
    /* An exact-size copy (at least one byte, never NULL) so that ASan flags
     * any read past the input's end. */
    uint8_t *data = malloc(n ? n : 1);
    if (!data) {
        free(buf);
        return -1;
    }
    memcpy(data, buf, n);
    free(buf);
    if (g_verbose) fprintf(stderr, "Running: %s (%zu bytes)\n", path, n);
    g_current = path;
    LLVMFuzzerTestOneInput(data, n);
    g_current = NULL;
    free(data);
    g_count++;
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path);

static int run_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue; /* ., .., .gitkeep and friends */
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) {
                rc = -1;
                break;
            }
            names = nn;
            cap = nc;
        }
        size_t len = strlen(path) + 1 + strlen(e->d_name) + 1;
        names[n] = malloc(len);
        if (!names[n]) {
            rc = -1;
            break;
        }
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && run_path(names[i]) != 0) rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) return run_dir(path);
    if (S_ISREG(st.st_mode)) return run_file(path);
    return 0; /* sockets, fifos: not inputs */
}

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [-v] [--allow-empty] FILE|DIR...\n"
            "Runs LLVMFuzzerTestOneInput once on every file (directories recursively).\n"
            "  -v             print each input before running it\n"
            "  --allow-empty  exit 0 even if no input was found\n"
            "  -flag=value    libFuzzer options are accepted and ignored\n"
            "Exit: 0 all ran; 1 no input found; 2 usage or I/O error.\n",
            argv0);
}

int main(int argc, char **argv)
{
    int allow_empty = 0, npaths = 0;
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(report_current);
    signal(SIGABRT, on_abort);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-help=1") == 0) {
            usage(argv[0]);
            return 0;
        } else if (strcmp(a, "-v") == 0) {
            g_verbose = 1;
        } else if (strcmp(a, "--allow-empty") == 0) {
            allow_empty = 1;
        } else if (a[0] == '-' && strchr(a, '=')) {
            fprintf(stderr, "replay: ignoring libFuzzer option %s\n", a);
        } else if (a[0] == '-') {
            fprintf(stderr, "replay: unknown option %s\n", a);
            usage(argv[0]);
            return 2;
        } else {
            npaths++;
        }
    }
    if (npaths == 0) {
        usage(argv[0]);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        if (run_path(argv[i]) != 0) rc = 2;
    }
    printf("replay: %zu input%s executed\n", g_count, g_count == 1 ? "" : "s");
    if (rc) return rc;
    if (g_count == 0 && !allow_empty) {
        fprintf(stderr, "replay: no inputs found (use --allow-empty if that is expected)\n");
        return 1;
    }
    return 0;
}
