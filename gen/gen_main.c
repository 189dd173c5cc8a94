/* SPDX-License-Identifier: MIT */
/* slidedb-gen's entry point: the commands are gen.c's, shared with
 * slidedb-gen-mpi. */
#include "gen/gen.h"

int main(int argc, char **argv)
{
	return gen_main(argc, argv, NULL);
}
