/* slidedb-gen export / import: tables as gzip streams (placeholder until the
 * format lands). */
#include <stdio.h>

#include "gen.h"

int cmd_export(const options *o, const char *name)
{
	(void)o;
	fprintf(stderr, "%s: export %s: not implemented yet\n", prog, name);
	return 1;
}

int cmd_import(const options *o, const char *file)
{
	(void)o;
	fprintf(stderr, "%s: import %s: not implemented yet\n", prog, file);
	return 1;
}
