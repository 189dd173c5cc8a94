/* slidedb-gen's entry point: the commands are in gen.c, shared with
 * slidedb-gen-mpi. */
#include "gen/gen_mpi.h"

const dist *gen_dist;

int main(int argc, char **argv)
{
	return gen_main(argc, argv, 0);
}
