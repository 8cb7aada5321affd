/*
 * fcs-batch: solves many boards with Freecell Solver's library and reports, per board, the
 * verdict, the iterations and the CPU time, so its figures can be set beside penguin-gym's own
 * solver on the same deals (scripts/fcs-side-by-side.ts; scripts/fcs/ours-batch.ts prints the
 * same format for this package's solver).
 *
 *   fcs-batch [--max-mb N] [--passes P] BOARDS_FILE [Freecell Solver options...]
 *
 * BOARDS_FILE holds boards in Freecell Solver's text format, each one introduced by a line
 * "#board LABEL". The options after it are Freecell Solver's own command-line options
 * (`-l lg`, `--game bakers_game`, `--method soft-dfs -to 01ABCDE`, `-mi 100000`, ...), parsed
 * once, as the range solver does; the instance is recycled between boards. `--passes P`
 * (default 1) solves the whole file P times in this one process: the first pass is the cold
 * one (a fresh process: page faults, the allocator's first growth, cold caches), the later
 * ones warm. An exhaustive search can store tens of millions of positions, so the process's
 * address space is capped (--max-mb, default 4096): past it the run stops with an error
 * instead of taking the machine's memory.
 *
 * Output, tab-separated, one line per board and pass and a last line for the whole run:
 *   board  PASS  LABEL  VERDICT  ITERATIONS  CPU_MS
 *   total  boards=N passes=P solved=N unsolved-exhaustive=N intractable-limit=N iterations=N
 *          cpu_s=S (solve loops only: solve + recycle, from getrusage) process_cpu_s=S
 *          peak_rss_mb=M version=V
 * PASS counts from 1. VERDICT is solved, unsolved-exhaustive (the search ran out of
 * positions), or intractable-limit (an iteration or stored-state limit stopped it); the counts
 * of the total line are those of the first pass.
 *
 * Build against Freecell Solver 6.16.0 (the header of scripts/fcs-side-by-side.ts builds it):
 *   gcc -O2 -o /opt/fcs6/bin/fcs-batch scripts/fcs/fcs-batch.c -I/opt/fcs6/include \
 *     -L/opt/fcs6/lib -Wl,-rpath,/opt/fcs6/lib -lfreecell-solver -lm
 * or against a distribution's package (Debian/Ubuntu: libfreecell-solver-dev, version 5.0.0):
 *   gcc -O2 -o scripts/fcs/fcs-batch scripts/fcs/fcs-batch.c -lfreecell-solver -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <freecell-solver/fcs_cl.h>
#include <freecell-solver/fcs_user.h>

#define MARK "#board "

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

static long peak_rss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static void die(const char *why, const char *what)
{
    fprintf(stderr, "fcs-batch: %s%s\n", why, what ? what : "");
    exit(2);
}

/* Reads the whole file (at most 256 MB, so a wrong path cannot eat the memory). */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open the boards file ", path);
    const size_t max = (size_t)256 << 20;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) die("out of memory", NULL);
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap *= 2;
            if (cap > max + 4097) die("the boards file is larger than 256 MB: ", path);
            buf = realloc(buf, cap);
            if (!buf) die("out of memory", NULL);
        }
        size_t got = fread(buf + len, 1, 4096, f);
        len += got;
        if (got < 4096) break;
    }
    if (ferror(f)) die("cannot read ", path);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

int main(int argc, char **argv)
{
    long max_mb = 4096, passes = 1;
    while (argc > 2 && (!strcmp(argv[1], "--max-mb") || !strcmp(argv[1], "--passes"))) {
        char *end;
        const long v = strtol(argv[2], &end, 10);
        if (!strcmp(argv[1], "--max-mb")) {
            if (*end || v < 64 || v > (1L << 20)) die("--max-mb takes megabytes from 64 to 1048576, got ", argv[2]);
            max_mb = v;
        } else {
            if (*end || v < 1 || v > 100) die("--passes takes a count from 1 to 100, got ", argv[2]);
            passes = v;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fprintf(stderr, "usage: fcs-batch [--max-mb N] [--passes P] BOARDS_FILE [Freecell Solver options...]\n");
        return 2;
    }
    const struct rlimit as_cap = {(rlim_t)max_mb << 20, (rlim_t)max_mb << 20};
    if (setrlimit(RLIMIT_AS, &as_cap) != 0) die("cannot cap the address space", NULL);
    char *text = read_all(argv[1]);

    void *fcs = freecell_solver_user_alloc();
    if (!fcs) die("cannot allocate a solver instance", NULL);
    if (argc > 2) {
        char *err = NULL;
        int last = 0;
        const int ret = freecell_solver_user_cmd_line_parse_args(fcs, argc, (freecell_solver_str_t *)argv, 2,
            NULL, NULL, NULL, &err, &last);
        if (ret != FCS_CMD_LINE_OK) {
            if (err) err[strcspn(err, "\n")] = '\0';
            fprintf(stderr, "fcs-batch: Freecell Solver rejected option \"%s\" (code %d)%s%s\n",
                last < argc ? argv[last] : "?", ret, err ? ": " : "", err ? err : "");
            return 2;
        }
    }

    /* Split the file into boards in place: each "#board LABEL" line starts one. */
    size_t nboards = 0, cap = 1024;
    char **labels = malloc(cap * sizeof *labels), **boards = malloc(cap * sizeof *boards);
    for (char *p = text; p && *p;) {
        char *eol = strchr(p, '\n');
        if (!strncmp(p, MARK, strlen(MARK))) {
            if (nboards == cap) {
                cap *= 2;
                labels = realloc(labels, cap * sizeof *labels);
                boards = realloc(boards, cap * sizeof *boards);
            }
            if (nboards > 0) *p = '\0'; /* ends the previous board */
            if (eol) *eol = '\0';
            labels[nboards] = p + strlen(MARK);
            boards[nboards] = eol ? eol + 1 : p + strlen(p);
            nboards++;
        } else if (nboards == 0 && *p != '\n' && *p != '\r') {
            die("the boards file must start with a \"#board LABEL\" line: ", argv[1]);
        }
        p = eol ? eol + 1 : NULL;
    }
    if (nboards == 0) die("no \"#board LABEL\" line in ", argv[1]);

    long long counts[3] = {0, 0, 0}, total_iters = 0;
    double loop = 0;
    int bad = 0;
    static const char *const names[3] = {"solved", "unsolved-exhaustive", "intractable-limit"};
    for (long pass = 1; pass <= passes; pass++) {
        for (size_t i = 0; i < nboards; i++) {
            const double t0 = cpu_seconds();
            const int ret = freecell_solver_user_solve_board(fcs, boards[i]);
            const long long iters = (long long)freecell_solver_user_get_num_times_long(fcs);
            if (ret == FCS_STATE_INVALID_STATE) {
                char why[256];
                freecell_solver_user_get_invalid_state_error_into_string(fcs, why FC_SOLVE__PASS_T(1));
                fprintf(stderr, "fcs-batch: board %s is not a valid position: %s\n", labels[i], why);
                bad = 1;
            }
            freecell_solver_user_recycle(fcs);
            const double dt = cpu_seconds() - t0;
            loop += dt;
            int v;
            if (ret == FCS_STATE_WAS_SOLVED)
                v = 0;
            else if (ret == FCS_STATE_IS_NOT_SOLVEABLE)
                v = 1;
            else if (ret == FCS_STATE_SUSPEND_PROCESS || ret == FCS_STATE_EXCEEDS_MAX_NUM_TIMES)
                v = 2;
            else {
                if (ret != FCS_STATE_INVALID_STATE)
                    fprintf(stderr, "fcs-batch: board %s: unexpected solver code %d\n", labels[i], ret);
                bad = 1;
                continue;
            }
            if (pass == 1) {
                counts[v]++;
                total_iters += iters;
            }
            printf("board\t%ld\t%s\t%s\t%lld\t%.3f\n", pass, labels[i], names[v], iters, dt * 1000);
        }
    }
    printf("total\tboards=%zu\tpasses=%ld\tsolved=%lld\tunsolved-exhaustive=%lld\tintractable-limit=%lld\titerations=%lld\tcpu_s=%.4f\tprocess_cpu_s=%.4f\tpeak_rss_mb=%ld\tversion=%s\n",
        nboards, passes, counts[0], counts[1], counts[2], total_iters, loop, cpu_seconds(), peak_rss_kb() / 1024,
        freecell_solver_user_get_lib_version(fcs));
    freecell_solver_user_free(fcs);
    free(labels);
    free(boards);
    free(text);
    return bad ? 2 : 0;
}
