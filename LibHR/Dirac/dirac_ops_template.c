/* dirac_ops_template.c -- the Wilson / Wilson-clover operators written once for both
 * precisions; included twice by dirac.c (not compiled alone). Parameters: DOP_SFX (name
 * suffix), DOP_SPINOR, DOP_MAT, DOP_FIELD (spinor field kind), DOP_CLOVER (clover site type),
 * DOP_CLOVER_KIND (clover field kind), DOP_REAL, DOP_LINKS() (packed host links of that
 * precision: 8 per site, forward then backward, see dirac.c), DOP_GPU_LINKS() (device copy of
 * the links on glattice), DOP_CLOVER_FIELD(m0, inverse) (blocks or inverses as a field, NULL
 * without clover).
 *
 * Every operator brings its input to the side it runs on (CPU loops, or GPU kernels when
 * dirac_on_gpu()) and marks its output written there, so host and device copies are never
 * read stale. */

#define DOP_(name) HR_CAT(name, DOP_SFX)
#define DOP_U_(name) HR_CAT(HR_CAT(name, DOP_SFX), _)
#define DOP_K_(verb) HR_CAT(verb, DOP_FIELD)
#define DOP_CK_(verb) HR_CAT(verb, DOP_CLOVER_KIND)

/* CPU loop of the hopping term over pieces p0 .. p1-1 of og (u: packed links), ending each
 * site with dirac_site_finish(mode, g5, s, diag, x, cl) (x on og, cl on glattice). */
static void DOP_(hop_pieces)(const geometry_descriptor *og, int p0, int p1, DOP_SPINOR *out,
                             const DOP_SPINOR *in, int ishift, const DOP_MAT *u, int mode, int g5,
                             DOP_REAL s, DOP_REAL diag, const DOP_SPINOR *x,
                             const DOP_CLOVER *cl) {
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
    DOP_SPINOR r;
    DOP_(dirac_site_hop)(up, dn, uu, ud, &r);
    DOP_(dirac_site_finish)(mode, g5, s, diag, x != NULL ? x + (ix - oshift) : NULL,
                            cl != NULL ? cl + (ix - ushift) : NULL, &r, out + (ix - oshift));
  }
}

/* out = hopping term of in (parity of in -> parity of out) with the epilogue of
 * dirac_site_finish; clover < 0: no clover (the number diag), else the blocks (0) or their
 * inverses (1) for m0 when csw != 0. Halo exchange of in overlapped with the inner pieces. */
static void DOP_(hop)(DOP_FIELD *out, const DOP_FIELD *in, int mode, int g5, DOP_REAL s,
                      DOP_REAL diag, const DOP_FIELD *x, double m0, int clover) {
  hr_assert(links != NULL, "Dirac operator called before dirac_set_gauge_field");
  const geometry_descriptor *og = out->type, *ig = in->type;
  const DOP_CLOVER_KIND *clf = clover >= 0 ? DOP_CLOVER_FIELD(m0, clover) : NULL;
  const int p_split = dirac_overlap ? og->inner_master_pieces : 0;
  if (dirac_on_gpu()) {
#if HR_GPU_ENABLED
    dirac_gpu_args a = dirac_gpu_args_for(og, ig);
    a.in = DOP_K_(sync_gpu_)(in);
    a.x = x != NULL ? DOP_K_(sync_gpu_)(x) : NULL;
    a.u = DOP_GPU_LINKS();
    a.cl = clf != NULL ? DOP_CK_(sync_gpu_)(clf) : NULL;
    a.out = DOP_K_(gpu_write_)(out);
    a.mode = mode;
    a.g5 = g5;
    a.s = s;
    a.diag = diag;
    DOP_K_(start_sendrecv_)((DOP_FIELD *)(uintptr_t)in);
    DOP_(dirac_gpu_hop)(og, 0, p_split, &a);
    DOP_K_(complete_sendrecv_)((DOP_FIELD *)(uintptr_t)in);
    DOP_(dirac_gpu_hop)(og, p_split, og->local_master_pieces, &a);
#endif
    return;
  }
  const DOP_SPINOR *ip = DOP_K_(sync_host_)(in);
  const DOP_SPINOR *xp = x != NULL ? DOP_K_(sync_host_)(x) : NULL;
  const DOP_CLOVER *cl = clf != NULL ? DOP_CK_(sync_host_)(clf) : NULL;
  DOP_SPINOR *op = DOP_K_(host_write_)(out);
  hr_comm_request *req =
      start_sendrecv_field(ig, HR_LAYOUT_SPINOR, (void *)(uintptr_t)ip, sizeof(DOP_SPINOR));
  DOP_(hop_pieces)(og, 0, p_split, op, ip, ig->master_shift, DOP_LINKS(), mode, g5, s, diag, xp,
                   cl);
  complete_sendrecv(req);
  DOP_(hop_pieces)(og, p_split, og->local_master_pieces, op, ip, ig->master_shift, DOP_LINKS(),
                   mode, g5, s, diag, xp, cl);
}

/* Diagonal part site by site: out = M in or M^-1 in (M = 4 + m0 + C), times gamma5 if g5. */
static void DOP_(diag_apply)(DOP_FIELD *out, const DOP_FIELD *in, double m0, int inverse,
                             int g5) {
  const geometry_descriptor *g = in->type;
  const DOP_CLOVER_KIND *clf = DOP_CLOVER_FIELD(m0, inverse);
  const DOP_REAL f = (DOP_REAL)(inverse ? 1. / (4. + m0) : 4. + m0);
  if (dirac_on_gpu()) {
#if HR_GPU_ENABLED
    dirac_gpu_args a = dirac_gpu_args_for(g, g);
    a.in = DOP_K_(sync_gpu_)(in);
    a.cl = clf != NULL ? DOP_CK_(sync_gpu_)(clf) : NULL;
    a.out = DOP_K_(gpu_write_)(out);
    a.g5 = g5;
    a.diag = f;
    DOP_(dirac_gpu_diag)(g, &a);
#endif
    return;
  }
  const DOP_SPINOR *ip = DOP_K_(sync_host_)(in);
  const DOP_CLOVER *cl = clf != NULL ? DOP_CK_(sync_host_)(clf) : NULL;
  DOP_SPINOR *op = DOP_K_(host_write_)(out);
  const int shift = g->master_shift;
  _OMP_MASTER_FOR(g, ix) {
    DOP_SPINOR t; /* out may be in */
    DOP_(dirac_site_diag)(g5, f, cl != NULL ? cl + (ix - glattice.master_shift) : NULL,
                          ip + (ix - shift), &t);
    op[ix - shift] = t;
  }
}

/* Temporary field `which` of this precision on g (allocated once, kept; -1 frees all). */
static DOP_FIELD *DOP_(tmp_field)(int which, const geometry_descriptor *g) {
  static DOP_FIELD *buf[3] = {NULL, NULL, NULL};
  if (which < 0) {
    for (int i = 0; i < 3; i++) {
      DOP_K_(free_)(buf[i]);
      buf[i] = NULL;
    }
    return NULL;
  }
  if (buf[which] == NULL || buf[which]->type != g) {
    DOP_K_(free_)(buf[which]);
    buf[which] = DOP_K_(alloc_)(1, g);
  }
  return buf[which];
}

/* Checks the arguments of an operator call. */
static void DOP_(check_types)(const char *op, const DOP_FIELD *out, const DOP_FIELD *in,
                              const geometry_descriptor *want) {
  hr_assert(out != NULL && in != NULL, "%s: NULL field", op);
  if (out == in || out->ptr == in->ptr)
    hr_error("%s: output and input must be different fields", op);
  if (want != NULL && (out->type != want || in->type != want))
    hr_error("%s: fields must live on %s", op, want == &glattice ? "glattice" : "glat_even");
}

static void DOP_(full_op)(double m0, DOP_FIELD *out, const DOP_FIELD *in, int g5) {
  DOP_(hop)(out, in, DIRAC_HOP_PLUS_DIAG, g5, (DOP_REAL)-0.5, (DOP_REAL)(4. + m0), in, m0, 0);
}

static void DOP_(eopre_op)(double m0, DOP_FIELD *out, const DOP_FIELD *in, int g5) {
  DOP_FIELD *tmp = DOP_(tmp_field)(0, &glat_odd);
  /* tmp_o = D_oo^-1 D_oe in = D_oo^-1 (-1/2 H_oe in) */
  DOP_(hop)(tmp, in, DIRAC_HOP_THEN_INV, 0, (DOP_REAL)-0.5, (DOP_REAL)(4. + m0), NULL, m0, 1);
  /* out_e = D_ee in - D_eo tmp_o = D_ee in + 1/2 H_eo tmp_o */
  DOP_(hop)(out, tmp, DIRAC_HOP_PLUS_DIAG, g5, (DOP_REAL)0.5, (DOP_REAL)(4. + m0), in, m0, 0);
}

void DOP_U_(Dphi)(DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_", out, in, NULL);
  const int ok = (out->type == &glattice && in->type == &glattice) ||
                 (out->type == &glat_even && in->type == &glat_odd) ||
                 (out->type == &glat_odd && in->type == &glat_even);
  if (!ok) hr_error("Dphi_: out and in must be on (glat_even, glat_odd), (glat_odd, glat_even) or (glattice, glattice)");
  DOP_(hop)(out, in, DIRAC_HOP_PLAIN, 0, (DOP_REAL)-0.5, 0, NULL, 0., -1);
}

void DOP_(Dphi)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi", out, in, &glattice);
  DOP_(full_op)(m0, out, in, 0);
}

void DOP_(g5Dphi)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi", out, in, &glattice);
  DOP_(full_op)(m0, out, in, 1);
}

void DOP_(g5Dphi_sq)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_sq", out, in, &glattice);
  DOP_FIELD *tmp = DOP_(tmp_field)(1, &glattice);
  DOP_(full_op)(m0, tmp, in, 1);
  DOP_(full_op)(m0, out, tmp, 1);
}

void DOP_(Dphi_eopre)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_eopre", out, in, &glat_even);
  DOP_(eopre_op)(m0, out, in, 0);
}

void DOP_(g5Dphi_eopre)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_eopre", out, in, &glat_even);
  DOP_(eopre_op)(m0, out, in, 1);
}

void DOP_(g5Dphi_eopre_sq)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_eopre_sq", out, in, &glat_even);
  DOP_FIELD *tmp = DOP_(tmp_field)(2, &glat_even);
  DOP_(eopre_op)(m0, tmp, in, 1);
  DOP_(eopre_op)(m0, out, tmp, 1);
}

void DOP_(Dphi_diag)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  hr_assert(out->type == in->type, "Dphi_diag: out and in must have the same geometry");
  DOP_(diag_apply)(out, in, m0, 0, 0);
}

void DOP_(Dphi_diag_inv)(double m0, DOP_FIELD *out, const DOP_FIELD *in) {
  hr_assert(out->type == in->type, "Dphi_diag_inv: out and in must have the same geometry");
  DOP_(diag_apply)(out, in, m0, 1, 0);
}

#undef DOP_
#undef DOP_U_
#undef DOP_K_
#undef DOP_CK_
#undef DOP_SFX
#undef DOP_SPINOR
#undef DOP_MAT
#undef DOP_FIELD
#undef DOP_CLOVER
#undef DOP_CLOVER_KIND
#undef DOP_REAL
#undef DOP_LINKS
#undef DOP_GPU_LINKS
#undef DOP_CLOVER_FIELD
