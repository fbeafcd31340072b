/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bounded, deterministic driver for the fuzz targets when they are not
 * built with libFuzzer (`make check`): replay every file of the corpus
 * directories given as arguments (or $top_srcdir/FUZZ_CORPUS, by default
 * "tests/fuzz/corpus"; a target compiles this file with its own), then
 * FUZZ_RUNS (default 3000) pseudo-random inputs from a fixed seed, some of
 * them mutations of the corpus.  A broken invariant aborts, as under
 * libFuzzer. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT 4096
#ifndef FUZZ_CORPUS /* the target's seed corpus, relative to $top_srcdir */
#define FUZZ_CORPUS "tests/fuzz/corpus"
#endif
#define MAX_SEEDS 64

static uint8_t *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS];
static unsigned nseeds;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fuzz: no corpus directory %s\n", dir);
        exit(1);
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t *buf = malloc(FUZZ_MAX_INPUT);
        size_t n = fread(buf, 1, FUZZ_MAX_INPUT, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
        if (nseeds < MAX_SEEDS) {
            seeds[nseeds] = buf;
            seed_len[nseeds++] = n;
        } else {
            free(buf);
        }
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            replay_dir(argv[i]);
    } else {
        const char *top = getenv("top_srcdir");
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/" FUZZ_CORPUS, top ? top : ".");
        replay_dir(dir);
    }
    const char *env = getenv("FUZZ_RUNS");
#ifndef FUZZ_DEFAULT_RUNS
#define FUZZ_DEFAULT_RUNS 3000
#endif
    unsigned long runs = env ? strtoul(env, NULL, 0) : FUZZ_DEFAULT_RUNS;
    static uint8_t buf[FUZZ_MAX_INPUT];
    for (unsigned long k = 0; k < runs; k++) {
        size_t n;
        if (nseeds && (next() & 1)) { /* mutate a corpus entry */
            unsigned s = (unsigned)(next() % nseeds);
            n = seed_len[s];
            memcpy(buf, seeds[s], n);
            for (unsigned m = 0, flips = 1 + (unsigned)(next() % 8); m < flips && n; m++)
                buf[next() % n] = (uint8_t)next();
        } else {
            n = (size_t)(next() % 1024);
            for (size_t i = 0; i < n; i++)
                buf[i] = (uint8_t)next();
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    for (unsigned i = 0; i < nseeds; i++)
        free(seeds[i]);
    printf("fuzz: %u corpus inputs, %lu generated inputs, no invariant broken\n", nseeds, runs);
    return 0;
}
