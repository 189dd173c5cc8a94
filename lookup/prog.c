/* slidedb-lookup: main.c's program on its own. */
#include "dist.h"
#include "opts.h"

int main(int argc, char **argv)
{
	cli_prog = "slidedb-lookup";
	return lookup_main(argc, argv, NULL);
}
