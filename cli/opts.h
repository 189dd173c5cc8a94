/* Command-line helpers shared by the programs. */
#ifndef SLIDEDB_OPTS_H
#define SLIDEDB_OPTS_H

/* The option getopt_long just refused: a short one by its letter (it may sit
 * inside a group like -zq, so argv alone cannot tell), a long one as typed. */
const char *cli_refused_option(char **argv);

#endif
