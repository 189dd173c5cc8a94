# SPDX-License-Identifier: MIT
# The benchmarks' data (Korf's instances, DeepCubeA's test sets, published
# counts per distance), sourced by the scripts from the source tree's root:
# $SLIDEDB_DATA, else ../shared/data beside the source tree. A folder
# without them stops the script at once, saying where it looked (it used to
# fail halfway through a run with a bare "No such file or directory").
data=${SLIDEDB_DATA:-../shared/data}
if [ ! -f "$data/korf100.txt" ]; then
	echo "$0: no benchmark data in '$data' (korf100.txt is missing);" \
	     "set SLIDEDB_DATA to the folder that holds it" >&2
	exit 2
fi
