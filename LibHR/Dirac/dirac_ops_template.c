/* dirac_ops_template.c -- the Wilson / Wilson-clover operators written once for both
 * precisions; included twice by dirac.c (not compiled alone). Parameters: DOP_SFX (name
 * suffix), DOP_SPINOR, DOP_MAT, DOP_FIELD, DOP_REAL, DOP_CLOVER (clover site type),
 * DOP_CLOVER_MUL (per-site clover product), DOP_LINKS() (packed links of that precision:
 * 8 per site, forward then backward, see dirac.c),
 * DOP_CLOVER_BLK(m0) / DOP_CLOVER_INV(m0) (blocks and inverses, NULL without clover). */

#define DOP_(name) HR_CAT(name, DOP_SFX)
#define DOP_U_(name) HR_CAT(HR_CAT(name, DOP_SFX), _)
#define DOP_SP_(op) HR_CAT(DOP_SPINOR, op)

/* The hopping term over pieces p0 .. p1-1 of og (u: packed links) with the epilogue `mode`:
 *   HOP_PLAIN:     out = s r
 *   HOP_PLUS_DIAG: out = M x + s r      (M = clover block `cl`, or the number `diag`)
 *   HOP_THEN_INV:  out = M^-1 (s r)     (M^-1 = inverse block `cl`, or 1/diag)
 * then out = gamma5 out when g5 != 0; r = sum_mu [(1-g) U psi(x+mu) + (1+g) U^+ psi(x-mu)]. */
static void DOP_(hop_pieces)(const geometry_descriptor *og, int p0, int p1, DOP_SPINOR *out,
                             const DOP_SPINOR *in, int ishift, const DOP_MAT *u,
                             hop_mode mode, int g5, DOP_REAL s, DOP_REAL diag,
                             const DOP_SPINOR *x, const DOP_CLOVER *cl) {
  const int oshift = og->master_shift;
  const int ushift = glattice.master_shift;
  /* last master index of the range + 1: prefetches stay among master sites */
  const int pf_end = p1 > p0 ? og->master_end[p1 - 1] + 1 : 0;
  _OMP_PIECE_RANGE_FOR(og, p0, p1, ix) {
    const DOP_SPINOR *up[4], *dn[4];
    const DOP_MAT *uu[4], *ud[4];
    const DOP_MAT *ux = u + 8 * (ix - ushift);
    for (int mu = 0; mu < 4; mu++) {
      const int iy = iup(ix, mu), iz = idn(ix, mu);
      up[mu] = in + (iy - ishift);
      dn[mu] = in + (iz - ishift);
      uu[mu] = ux + mu;
      ud[mu] = ux + 4 + mu;
    }
    if (ix + DIRAC_PF_DIST < pf_end) {
      /* prefetch the scattered neighbours of a site a few iterations ahead */
      const int jx = ix + DIRAC_PF_DIST;
      for (int mu = 0; mu < 4; mu++) {
        const int jy = iup(jx, mu), jz = idn(jx, mu);
        if (jy >= ishift && jz >= ishift) {
          DIRAC_PREFETCH(in + (jy - ishift), sizeof(DOP_SPINOR));
          DIRAC_PREFETCH(in + (jz - ishift), sizeof(DOP_SPINOR));
        }
      }
    }
    DOP_SPINOR r, t;
    DOP_(dirac_site_hop)(up, dn, uu, ud, &r);
    DOP_SPINOR *o = out + (ix - oshift);
    switch (mode) {
    case HOP_PLAIN:
      DOP_SP_(_scale)(s, &r, &t);
      break;
    case HOP_PLUS_DIAG:
      if (cl != NULL) {
        DOP_SPINOR m;
        DOP_CLOVER_MUL(cl + (ix - glattice.master_shift), x + (ix - oshift), &m);
        DOP_SP_(_mul_add)(&m, s, &r, &t);
      } else {
        DOP_SP_(_scale)(diag, x + (ix - oshift), &t);
        DOP_SP_(_mul_add)(&t, s, &r, &t);
      }
      break;
    default: /* HOP_THEN_INV */
      DOP_SP_(_scale)(s, &r, &r);
      if (cl != NULL)
        DOP_CLOVER_MUL(cl + (ix - glattice.master_shift), &r, &t);
      else
        DOP_SP_(_scale)((DOP_REAL)1 / diag, &r, &t);
      break;
    }
    if (g5)
      DOP_SP_(_g5)(&t, o);
    else
      *o = t;
  }
}

/* The hopping term from (in, ig) to (out, og) with halo exchange and overlap. */
static void DOP_(hop)(const geometry_descriptor *og, DOP_SPINOR *out,
                      const geometry_descriptor *ig, const DOP_SPINOR *in, hop_mode mode,
                      int g5, DOP_REAL s, DOP_REAL diag, const DOP_SPINOR *x,
                      const DOP_CLOVER *cl) {
  const DOP_MAT *u = DOP_LINKS();
  hr_assert(u != NULL, "Dirac operator called before dirac_set_gauge_field");
  hr_comm_request *req =
      start_sendrecv_field(ig, HR_LAYOUT_SPINOR, (void *)(uintptr_t)in, sizeof(DOP_SPINOR));
  int p_split = 0;
  if (dirac_overlap) {
    p_split = og->inner_master_pieces;
    DOP_(hop_pieces)(og, 0, p_split, out, in, ig->master_shift, u, mode, g5, s, diag, x, cl);
  }
  complete_sendrecv(req);
  DOP_(hop_pieces)(og, p_split, og->local_master_pieces, out, in, ig->master_shift, u, mode,
                   g5, s, diag, x, cl);
}

/* Diagonal part site by site: out = M in or M^-1 in (M = 4 + m0 + C), times gamma5 if g5. */
static void DOP_(diag_apply)(const geometry_descriptor *g, DOP_SPINOR *out, const DOP_SPINOR *in,
                             double m0, int inverse, int g5) {
  const DOP_CLOVER *cl = clover_csw() != 0. ? (inverse ? DOP_CLOVER_INV(m0) : DOP_CLOVER_BLK(m0))
                                            : NULL;
  const DOP_REAL f = (DOP_REAL)(inverse ? 1. / (4. + m0) : 4. + m0);
  const int shift = g->master_shift;
  _OMP_MASTER_FOR(g, ix) {
    DOP_SPINOR t;
    if (cl != NULL)
      DOP_CLOVER_MUL(cl + (ix - glattice.master_shift), in + (ix - shift), &t);
    else
      DOP_SP_(_scale)(f, in + (ix - shift), &t);
    if (g5)
      DOP_SP_(_g5)(&t, out + (ix - shift));
    else
      out[ix - shift] = t;
  }
}

/* Temporaries of this precision on a geometry (allocated once, kept). */
static DOP_SPINOR *DOP_(tmp_field)(int which, const geometry_descriptor *g) {
  static DOP_SPINOR *buf[3] = {NULL, NULL, NULL};
  static int len[3] = {0, 0, 0};
  if (which < 0) { /* release all */
    for (int i = 0; i < 3; i++) {
      free(buf[i]);
      buf[i] = NULL;
      len[i] = 0;
    }
    return NULL;
  }
  const int n = geometry_field_size(g, HR_LAYOUT_SPINOR);
  if (len[which] < n) {
    free(buf[which]);
    buf[which] = aligned_alloc(64, ((size_t)n * sizeof(DOP_SPINOR) + 63) / 64 * 64);
    if (buf[which] == NULL) hr_error("out of memory for a Dirac operator temporary");
    memset(buf[which], 0, (size_t)n * sizeof(DOP_SPINOR));
    len[which] = n;
  }
  return buf[which];
}

/* Checks the parities of an operator call. */
static void DOP_(check_types)(const char *op, const DOP_FIELD *out, const DOP_FIELD *in,
                              const geometry_descriptor *want) {
  if (out == in || out->ptr == in->ptr)
    hr_error("%s: output and input must be different fields", op);
  if (want != NULL && (out->type != want || in->type != want))
    hr_error("%s: fields must live on %s", op, want == &glattice ? "glattice" : "glat_even");
}

static void DOP_(full_op)(double m0, DOP_SPINOR *out, const DOP_SPINOR *in, int g5) {
  const DOP_CLOVER *cl = clover_csw() != 0. ? DOP_CLOVER_BLK(m0) : NULL;
  DOP_(hop)(&glattice, out, &glattice, in, HOP_PLUS_DIAG, g5, (DOP_REAL)-0.5,
            (DOP_REAL)(4. + m0), in, cl);
}

static void DOP_(eopre_op)(double m0, DOP_SPINOR *out, const DOP_SPINOR *in, int g5) {
  const int clov = clover_csw() != 0.;
  const DOP_CLOVER *inv = clov ? DOP_CLOVER_INV(m0) : NULL;
  const DOP_CLOVER *blk = clov ? DOP_CLOVER_BLK(m0) : NULL;
  DOP_SPINOR *tmp = DOP_(tmp_field)(0, &glat_odd);
  /* tmp_o = D_oo^-1 D_oe in = D_oo^-1 (-1/2 H_oe in) */
  DOP_(hop)(&glat_odd, tmp, &glat_even, in, HOP_THEN_INV, 0, (DOP_REAL)-0.5,
            (DOP_REAL)(4. + m0), NULL, inv);
  /* out_e = D_ee in - D_eo tmp_o = D_ee in + 1/2 H_eo tmp_o */
  DOP_(hop)(&glat_even, out, &glat_odd, tmp, HOP_PLUS_DIAG, g5, (DOP_REAL)0.5,
            (DOP_REAL)(4. + m0), in, blk);
}

void DOP_U_(Dphi)(DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_", out, in, NULL);
  const int ok = (out->type == &glattice && in->type == &glattice) ||
                 (out->type == &glat_even && in->type == &glat_odd) ||
                 (out->type == &glat_odd && in->type == &glat_even);
  if (!ok) hr_error("Dphi_: out and in must be on (glat_even, glat_odd), (glat_odd, glat_even) or (glattice, glattice)");
  DOP_(hop)(out->type, out->ptr, in->type, in->ptr, HOP_PLAIN, 0, (DOP_REAL)-0.5, 0, NULL, NULL);
}

void DOP_(Dphi)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi", out, in, &glattice);
  DOP_(full_op)(m0, out->ptr, in->ptr, 0);
}

void DOP_(g5Dphi)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi", out, in, &glattice);
  DOP_(full_op)(m0, out->ptr, in->ptr, 1);
}

void DOP_(g5Dphi_sq)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_sq", out, in, &glattice);
  DOP_SPINOR *tmp = DOP_(tmp_field)(1, &glattice);
  DOP_(full_op)(m0, tmp, in->ptr, 1);
  DOP_(full_op)(m0, out->ptr, tmp, 1);
}

void DOP_(Dphi_eopre)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_eopre", out, in, &glat_even);
  DOP_(eopre_op)(m0, out->ptr, in->ptr, 0);
}

void DOP_(g5Dphi_eopre)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_eopre", out, in, &glat_even);
  DOP_(eopre_op)(m0, out->ptr, in->ptr, 1);
}

void DOP_(g5Dphi_eopre_sq)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_eopre_sq", out, in, &glat_even);
  DOP_SPINOR *tmp = DOP_(tmp_field)(2, &glat_even);
  DOP_(eopre_op)(m0, tmp, in->ptr, 1);
  DOP_(eopre_op)(m0, out->ptr, tmp, 1);
}

void DOP_(Dphi_diag)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  hr_assert(out->type == in->type, "Dphi_diag: out and in must have the same geometry");
  DOP_(diag_apply)(in->type, out->ptr, in->ptr, m0, 0, 0);
}

void DOP_(Dphi_diag_inv)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  hr_assert(out->type == in->type, "Dphi_diag_inv: out and in must have the same geometry");
  DOP_(diag_apply)(in->type, out->ptr, in->ptr, m0, 1, 0);
}

#undef DOP_
#undef DOP_U_
#undef DOP_SP_
#undef DOP_SFX
#undef DOP_SPINOR
#undef DOP_MAT
#undef DOP_FIELD
#undef DOP_REAL
#undef DOP_CLOVER
#undef DOP_CLOVER_MUL
#undef DOP_LINKS
#undef DOP_CLOVER_BLK
#undef DOP_CLOVER_INV
