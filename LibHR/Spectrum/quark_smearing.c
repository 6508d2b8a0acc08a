/* quark_smearing.c -- Gaussian (Wuppertal / Jacobi) smearing of spinor fields with the
 * spatial hopping term of (optionally APE / stout / HYP smeared) represented links, and its
 * use on propagator columns (smeared sinks). Definitions: propagator.h, Doc/solvers_and_spectrum.md
 * section "Quark smearing". */
#include <stdint.h>

#include "hr_error.h"
#include "linear_algebra.h"
#include "logger.h"
#include "propagator.h"
#include "suN.h"
#include "halo_exchange.h"

void quark_smearing_init(quark_smearing *qs, const suNg_field *u, const dirac_bc *bc,
                         const quark_smearing_params *p) {
  hr_assert(p->kappa >= 0 && p->steps >= 0, "quark_smearing_init: kappa %g / steps %d < 0",
            p->kappa, p->steps);
  qs->kappa = p->kappa;
  qs->steps = p->steps;
  qs->links = alloc_gfield_f(&glattice);
  if (p->links.kind == SMEAR_NONE) {
    represent_gauge_field(qs->links, u, bc);
  } else {
    /* smear_gauge_field reads u's halo: exchange it on a copy (u is not touched) */
    suNg_field *w = alloc_suNg_field(2, &glattice);
    copy_suNg_field(w, u);
    sendrecv_suNg_field(w);
    smear_gauge_field(w + 1, w, &p->links);
    represent_gauge_field(qs->links, w + 1, bc);
    free_suNg_field(w);
  }
}

void quark_smearing_free(quark_smearing *qs) {
  free_gfield_f(qs->links);
  qs->links = NULL;
}

/* out = a in + b H in on the master sites (out != in; in's halo is exchanged here). */
static void smearing_step(spinor_field *out, const quark_smearing *qs, const spinor_field *in,
                          double a, double b) {
  hr_assert(out != in && out->type == &glattice && in->type == &glattice,
            "quark smearing: in and out must be different fields on glattice");
  /* the halo is a cache of the neighbours' values, not part of the field's value */
  spinor_field *inw = (spinor_field *)(uintptr_t)in;
  sync_host_spinor_field(inw);
  sendrecv_spinor_field(inw);
  sync_host_spinor_field(inw);
  sync_host_suNf_field(qs->links);
  host_write_spinor_field(out);
  _OMP_MASTER_FOR(&glattice, ix) {
    suNf_spinor h;
    suNf_spinor_zero(&h);
    for (int k = 1; k < 4; k++) {
      const int up = iup(ix, k), dn = idn(ix, k);
      const suNf *u_up = _4FIELD_AT(qs->links, ix, k);
      const suNf *u_dn = _4FIELD_AT(qs->links, dn, k);
      const suNf_spinor *s_up = _FIELD_AT(in, up), *s_dn = _FIELD_AT(in, dn);
      for (int sp = 0; sp < 4; sp++) {
        suNf_mul_vec_add(&h.c[sp], u_up, &s_up->c[sp]);
        suNf_dag_mul_vec_add(&h.c[sp], u_dn, &s_dn->c[sp]);
      }
    }
    suNf_spinor t;
    suNf_spinor_scale(&t, a, _FIELD_AT(in, ix));
    suNf_spinor_mul_add(_FIELD_AT(out, ix), &t, b, &h);
  }
}

void quark_smearing_hop(spinor_field *out, const quark_smearing *qs, const spinor_field *in) {
  smearing_step(out, qs, in, 0.0, 1.0);
}

void quark_smear(spinor_field *psi, const quark_smearing *qs) {
  if (qs->steps == 0) return;
  spinor_field *tmp = alloc_spinor_field_f(1, psi->type);
  const double norm = 1.0 / (1.0 + 6.0 * qs->kappa);
  for (int i = 0; i < qs->steps; i++) {
    smearing_step(tmp, qs, psi, norm, norm * qs->kappa);
    copy_spinor_field(psi, tmp);
  }
  free_spinor_field_f(tmp);
}

void propagator_smear_sink(spinor_field *prop, const quark_smearing *qs) {
  for (int i = 0; i < 4 * NF; i++) quark_smear(prop + i, qs);
}
