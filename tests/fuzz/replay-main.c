/* A main() for the fuzz targets in builds without libFuzzer: feeds each
 * file named on the command line (or each file of each directory named)
 * to LLVMFuzzerTestOneInput once, so a test can replay a corpus in every
 * build, under ASan or valgrind.  Prints how many inputs it ran. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run_file(const char *name)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", name, strerror(errno));
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    fclose(f);
    /* An exact-size copy, so that overreads are caught. */
    uint8_t *exact = xmalloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

int
main(int argc, char *argv[])
{
    int errors = 0;
    unsigned int n_inputs = 0;

    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) {
            fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
            errors++;
        } else if (S_ISDIR(st.st_mode)) {
            DIR *dir = opendir(argv[i]);
            struct dirent *de;
            while (dir && (de = readdir(dir)) != NULL) {
                if (de->d_name[0] == '.') {
                    continue;
                }
                char *name = xasprintf("%s/%s", argv[i], de->d_name);
                errors += run_file(name);
                n_inputs++;
                free(name);
            }
            if (dir) {
                closedir(dir);
            }
        } else {
            errors += run_file(argv[i]);
            n_inputs++;
        }
    }
    printf("replayed %u inputs\n", n_inputs);
    return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
