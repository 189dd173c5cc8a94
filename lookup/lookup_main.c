/* SPDX-License-Identifier: MIT */
/* slidedb-lookup: lookup.c's program on its own. */
#include "cli/cli.h"
#include "lookup/lookup.h"

int main(int argc, char **argv)
{
	cli_prog = "slidedb-lookup";
	return lookup_main(argc, argv, NULL);
}
