/* geometry_internal.h -- shared between the files of Geometry/ only: the layout builder,
 * and the rank lookup it uses. */
#ifndef GEOMETRY_INTERNAL_H
#define GEOMETRY_INTERNAL_H

#include "geometry.h"

/* Rank of the process at displacement d (entries -1, 0, +1) from this one in the grid
 * (periodic); 0 without MPI. */
int geometry_rank_at(const int d[4]);

/* Build glattice, glat_even, glat_odd and the site tables from LOC_SIZE, HALO_DIR and
 * PB_SIZE (set by geometry_init). */
void geometry_layout_build(void);
/* Free everything geometry_layout_build allocated. */
void geometry_layout_free(void);

#endif
