/* End-to-end tests of the answers for people (being written). */
#include "clikit.h"

Test(cli_answers, the_suite_runs)
{
	cr_assert(1);
}
