/* links_exp_update.h -- a helper shared by the force tests of TestProgram/Update/ (gauge
 * action, stout chain): move the links along a direction of the algebra with a host loop
 * written in the tests, independent of the library's molecular dynamics. */
#ifndef LINKS_EXP_UPDATE_H
#define LINKS_EXP_UPDATE_H

#include "communications.h"
#include "halo_exchange.h"
#include "fields.h"
#include "geometry.h"
#include "suN.h"

/* U <- exp(t X) U on every link, halo exchanged. */
static inline void links_exp_update(suNg_field *u, const suNg_av_field *X, double t) {
  const suNg_algebra_vector *x = sync_host_suNg_av_field(X);
  suNg *l = host_write_suNg_field(u);
  const int sh = glattice.master_shift;
  _MASTER_FOR(&glattice, ix) {
    for (int mu = 0; mu < 4; ++mu) {
      suNg_algebra_vector v;
      suNg e, r;
      for (int a = 0; a < NG * NG - 1; ++a) v.c[a] = t * x[4 * (ix - sh) + mu].c[a];
      suNg_exp(&e, &v);
      suNg_mul(&r, &e, &l[4 * (ix - sh) + mu]);
      l[4 * (ix - sh) + mu] = r;
    }
  }
  sendrecv_suNg_field(u);
}

#endif
