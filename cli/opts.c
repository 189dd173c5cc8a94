/* Command-line helpers; see opts.h. */
#include <getopt.h>

#include "opts.h"

const char *cli_refused_option(char **argv)
{
	static char name[3];
	if (optopt) {
		name[0] = '-';
		name[1] = (char)optopt;
		return name;
	}
	return argv[optind - 1];
}
