/* SPDX-License-Identifier: MIT */
/* One group of a pattern-database set, built and stored (slidedb-gen pdb),
 * or built again to prove an imported one (slidedb-gen import). */
#ifndef SLIDEDB_GEN_PDB_GROUP_H
#define SLIDEDB_GEN_PDB_GROUP_H

#include "gen/gen.h"

/* Group `group` of ngroups of the set setname, its tiles searched over p
 * (blank region mode) for the canonical goal canon, folded for min mode,
 * packed where its entries fit nibbles, and stored in the run's
 * transaction. 0, or an SDB_E* code recorded in the run. */
int pdb_group_build(run *r, const sdb_board *canon, const char *setname, uint64_t tiles,
                    const sdb_pattern *p, int group, int ngroups, int mode);

/* slidedb-gen import's proof of a min-mode pattern group, which the
 * library has none of (its entries are minima over the blank's regions,
 * which its neighbours do not bound): the group built again as `pdb` builds
 * it, on threads, folded, packed and laid out as info says, and compared
 * with data byte for byte. Costs the group's build. 0, or an SDB_E* code
 * with the reason in why. */
int pdb_group_check_min(const sdb_table_info *info, const uint8_t *data, int threads,
                        progress *bar, char *why, size_t cap);

#endif
