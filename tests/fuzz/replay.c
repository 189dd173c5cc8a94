/* SPDX-License-Identifier: MIT */
/* The fuzz targets' corpora as ordinary tests: every file of the folders
 * (or the files) given is fed to the target's LLVMFuzzerTestOneInput, in any
 * build and with any compiler, no libFuzzer needed (zstd's
 * regression_driver does the same). A target that crashes or aborts on a
 * corpus file fails the test.
 *   replay_TARGET DIR|FILE... */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The mutator fuzz_open hands libFuzzer calls back into it: not used here. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
	(void)data;
	(void)max_size;
	return size;
}

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;
	do {
		if (size == cap && !(data = realloc(data, cap = cap ? 2 * cap : 4096)))
			abort();
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= replay_file(argv[i]);
			files++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		for (struct dirent *e; d && (e = readdir(d));) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
			if (e->d_name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode)) {
				bad |= replay_file(path);
				files++;
			}
		}
		if (d)
			closedir(d);
	}
	printf("%d corpus file%s replayed\n", files, files == 1 ? "" : "s");
	return bad || files == 0;
}
