# SPDX-License-Identifier: MIT
# Korf's 24-puzzle instances as the benchmarks take them (sourced by
# bench/korf50.sh and bench/mpi_search.sh, from the source tree's root):
# the data file, the goal, and the 10 easiest by Korf and Felner's counts.
. bench/data_dir.sh
korf50_data=$data/korf50_24puzzle.txt
korf50_goal=$(seq -s ' ' 0 24)
korf50_easiest=(38 40 25 32 44 37 30 13 1 28)

# The instances asked for (the arguments), else the 10 easiest, in list.
korf50_chosen() {
	list=("$@")
	[ ${#list[@]} -gt 0 ] || list=("${korf50_easiest[@]}")
}
