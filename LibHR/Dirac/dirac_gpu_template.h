/* dirac_gpu_template.h -- the kernels and launchers of dirac_gpu.c for one precision; included
 * twice by dirac_gpu.c (no include guard) with DGPU_SFX (name suffix), DGPU_SPINOR, DGPU_VEC,
 * DGPU_MAT, DGPU_CLOVER, DGPU_CPLX, DGPU_MKCPLX, DGPU_REAL, DGPU_REGS and DGPU_THREADS (launch
 * bounds) defined; they are undefined at the end. */

/* The parameters must be defined by the includer. */
#ifndef DGPU_SFX
#error "dirac_gpu_template.h: define DGPU_SFX (the name suffix, empty or _flt) before including"
#endif
#ifndef DGPU_SPINOR
#error "dirac_gpu_template.h: define DGPU_SPINOR (the spinor type) before including"
#endif
#ifndef DGPU_VEC
#error "dirac_gpu_template.h: define DGPU_VEC (the colour vector type) before including"
#endif
#ifndef DGPU_MAT
#error "dirac_gpu_template.h: define DGPU_MAT (the link matrix type) before including"
#endif
#ifndef DGPU_CLOVER
#error "dirac_gpu_template.h: define DGPU_CLOVER (the clover block type) before including"
#endif
#ifndef DGPU_REGS
#error "dirac_gpu_template.h: define DGPU_REGS (the register budget of the kernels) before including"
#endif
#ifndef DGPU_THREADS
#error "dirac_gpu_template.h: define DGPU_THREADS (the kernels' largest block) before including"
#endif
#ifndef DGPU_CPLX
#error "dirac_gpu_template.h: define DGPU_CPLX (the complex type) before including"
#endif
#ifndef DGPU_MKCPLX
#error "dirac_gpu_template.h: define DGPU_MKCPLX (the complex constructor) before including"
#endif
#ifndef DGPU_REAL
#error "dirac_gpu_template.h: define DGPU_REAL (the real type) before including"
#endif

#define DGPU_(name) HR_CAT(name, DGPU_SFX)
#define DGPU_RD_(type) HR_CAT(read_gpu_, type)
#define DGPU_WR_(type) HR_CAT(write_gpu_, type)
#define DGPU_RD_UNITS_(type) HR_CAT(HR_CAT(read_gpu_, type), _units)

/* The strided reference (dirac_clover_ref) of the clover element ex of the device piece at
 * offset off with len elements, in the clover field cl. */
HR_INLINE HR_CAT(dirac_clover_ref, DGPU_SFX)
    DGPU_(dirac_gpu_clover_ref)(const void *cl, int off, int len, int ex) {
  return HR_CAT(dirac_clover_device, DGPU_SFX)((const DGPU_CLOVER *)cl + off, ex - off, len);
}

/* The half spinor h of (1 + sg gamma_mu) psi at the site iy of the input, projected while
 * its spin components are read (two colour vectors live at a time, not the whole spinor). */
HR_INLINE void DGPU_(dirac_gpu_project_site)(HR_CAT(dirac_half_spinor, DGPU_SFX) * h,
                                             const dirac_gpu_args *a, int iy, int mu, int sg) {
  const DGPU_SPINOR *in = (const DGPU_SPINOR *)a->in;
  HR_GPU_SITE_AT(a->isites, iy, e, off, len);
  DIRAC_UNROLL
  for (int r = 0; r < 2; ++r) {
    DGPU_VEC upper, lower;
    DGPU_RD_(DGPU_VEC)(len, &upper, in + off, e - off, r);
    DGPU_RD_(DGPU_VEC)(len, &lower, in + off, e - off, dirac_spin_partner(mu, r));
    HR_CAT(dirac_spin_project_row, DGPU_SFX)(&h->c[r], mu, sg, r, &upper, &lower);
  }
}

/* The half spinor h of (1 + sg gamma_mu) psi at the neighbour iy: the received one where iy
 * lies in the halo of a->halo_tab (the sender projected it the same way, so the bits are
 * those of projecting here), else projected from the input. */
HR_INLINE void DGPU_(dirac_gpu_project)(HR_CAT(dirac_half_spinor, DGPU_SFX) * h,
                                        const dirac_gpu_args *a, int iy, int mu, int sg) {
  const unsigned k = (unsigned)(iy - a->halo_lo);
  if (a->halo_tab != NULL && k < (unsigned)a->halo_n && a->halo_tab[3 * k] >= 0) {
    const int blk = a->halo_tab[3 * k], in = a->halo_tab[3 * k + 1], len = a->halo_tab[3 * k + 2];
    const char *b = (const char *)a->halo_recv + (size_t)blk * sizeof *h;
    DGPU_RD_(DGPU_VEC)(len, &h->c[0], b, in, 0);
    DGPU_RD_(DGPU_VEC)(len, &h->c[1], b, in, 1);
    return;
  }
  DGPU_(dirac_gpu_project_site)(h, a, iy, mu, sg);
}

/* One direction of the hopping sum at site ix: projects the neighbour spinor while reading it,
 * reads the link, then r (+)= (1 + sg gamma_mu) W psi (dirac_site_hop_dir_half: two
 * mat-vecs, reconstruction, accumulation), so that only a half spinor and one link are live
 * besides r. links = 12 (NF = 3): only rows 0 and 1 of the link are read, row 2 is rebuilt
 * where used (dirac_site_hop_dir_half_12) with det U = a->link_det[mu][b], b the boundary bit
 * of this link in edge, the boundary bits of ix. */
HR_INLINE void DGPU_(dirac_gpu_hop_dir)(const dirac_gpu_args *a, int ix, int ex, int ux_off,
                                        int ux_len, int edge, int links, int mu, int sg,
                                        int first, DGPU_SPINOR *r) {
  const DGPU_MAT *u = (const DGPU_MAT *)a->u;
  HR_CAT(dirac_half_spinor, DGPU_SFX) h;
  DGPU_MAT w;
  const int units = links == 12 ? 2 * NF : NF * NF; /* a constant in each kernel */
  if (sg < 0) {
    DGPU_(dirac_gpu_project)(&h, a, a->iup[4 * ix + mu], mu, sg);
    DGPU_RD_UNITS_(DGPU_MAT)(ux_len, &w, u + 4 * ux_off, ex - ux_off, mu, units);
  } else {
    const int iz = a->idn[4 * ix + mu];
    DGPU_(dirac_gpu_project)(&h, a, iz, mu, sg);
    HR_GPU_SITE_AT(a->usites, iz, e, off, len);
    DGPU_RD_UNITS_(DGPU_MAT)(len, &w, u + 4 * off, e - off, mu, units);
  }
#if NF == 3
  if (links == 12) {
    const int b = (edge >> (sg < 0 ? mu : 4 + mu)) & 1;
    const DGPU_CPLX det =
        DGPU_MKCPLX((DGPU_REAL)a->link_det[mu][b][0], (DGPU_REAL)a->link_det[mu][b][1]);
    HR_CAT(dirac_site_hop_dir_half_12, DGPU_SFX)(r, mu, sg, first, &h, &w, det);
    return;
  }
#endif
  (void)edge;
  HR_CAT(dirac_site_hop_dir_half, DGPU_SFX)(r, mu, sg, first, &h, &w);
}

/* The hopping application at one output site, for one variant (mode, g5, clover, links):
 * constants at every call, so each kernel below is compiled without the branches of the
 * others. The directions are summed in the order of dirac_site_hop_generic. */
HR_INLINE void DGPU_(dirac_gpu_hop_site)(const dirac_gpu_args *a, int ix, int mode, int g5,
                                         int has_cl, int links) {
  DGPU_SPINOR r;
  HR_GPU_SITE_AT(a->usites, ix, ex, ux_off, ux_len);
  const int edge = links == 12 ? a->edge[ex] : 0;
#define DGPU_DIR_(mu, sg, first)                                                               \
  DGPU_(dirac_gpu_hop_dir)(a, ix, ex, ux_off, ux_len, edge, links, mu, sg, first, &r)
  DGPU_DIR_(0, -1, 1);
  DGPU_DIR_(0, +1, 0);
  DGPU_DIR_(1, -1, 0);
  DGPU_DIR_(1, +1, 0);
  DGPU_DIR_(2, -1, 0);
  DGPU_DIR_(2, +1, 0);
  DGPU_DIR_(3, -1, 0);
  DGPU_DIR_(3, +1, 0);
#undef DGPU_DIR_
  HR_GPU_LOAD_BARRIER(); /* the epilogue's loads stay after the hopping sum */
  HR_GPU_SITE_AT(a->osites, ix, eo, o_off, o_len);
  /* the clover block is read an entry at a time where it is used; its piece is looked up
   * again here (not held through the hopping sum: registers) */
  HR_GPU_SITE_AT(a->usites, ix, cx, c_off, c_len);
  const HR_CAT(dirac_clover_ref, DGPU_SFX) c =
      DGPU_(dirac_gpu_clover_ref)(a->cl, c_off, c_len, cx);
  const HR_CAT(dirac_clover_ref, DGPU_SFX) *pc = has_cl ? &c : NULL;
  if (mode == DIRAC_HOP_PLUS_DIAG) { /* x and the result a chirality at a time */
    DIRAC_UNROLL
    for (int ch = 0; ch < 2; ++ch) {
      HR_GPU_LOAD_BARRIER(); /* one chirality of x and of the block live at a time */
      DGPU_SPINOR xv;
      const DGPU_SPINOR *xb = (const DGPU_SPINOR *)a->x + o_off;
      DGPU_RD_(DGPU_VEC)(o_len, &xv.c[2 * ch], xb, eo - o_off, 2 * ch);
      DGPU_RD_(DGPU_VEC)(o_len, &xv.c[2 * ch + 1], xb, eo - o_off, 2 * ch + 1);
      DGPU_(dirac_site_plus_diag)(&r, ch, (DGPU_REAL)a->s, (DGPU_REAL)a->diag, &xv, pc);
      /* stored as soon as formed (frees its registers); out = gamma5 r: exact sign
       * changes of chirality 1 */
      if (g5 && ch == 1) {
        HR_CAT(DGPU_VEC, _minus)(&r.c[2], &r.c[2]);
        HR_CAT(DGPU_VEC, _minus)(&r.c[3], &r.c[3]);
      }
      DGPU_SPINOR *ob = (DGPU_SPINOR *)a->out + o_off;
      DGPU_WR_(DGPU_VEC)(o_len, &r.c[2 * ch], ob, eo - o_off, 2 * ch);
      DGPU_WR_(DGPU_VEC)(o_len, &r.c[2 * ch + 1], ob, eo - o_off, 2 * ch + 1);
    }
    return;
  }
  DGPU_SPINOR o;
  DGPU_(dirac_site_finish_ref)(&o, mode, g5, (DGPU_REAL)a->s, (DGPU_REAL)a->diag, NULL, pc, &r);
  DGPU_WR_(DGPU_SPINOR)(o_len, &o, (DGPU_SPINOR *)a->out + o_off, eo - o_off, 0);
}

/* One kernel per variant: one thread per site of the runs of pieces rs (dirac_gpu_runs);
 * dirac_hop_kernel[_flt]_M_G_C reads whole links, ..._M_G_C_12 (NF = 3) 12-number links.
 * Bounds: DGPU_THREADS threads, DGPU_REGS registers (Doc/gpu.md). */
#define DGPU_HOP_KERNEL_ONE_(name, mode, g5, cl, links)                                        \
  HR_KERNEL_BOUNDED(name, DGPU_THREADS, DGPU_REGS, dirac_gpu_args a, dirac_gpu_runs rs) {      \
    HR_THREAD_LOOP(t) {                                                                        \
      const int ix = dirac_gpu_run_site(&rs, HR_THREAD_INDEX(t));                              \
      if (ix >= 0) DGPU_(dirac_gpu_hop_site)(&a, ix, mode, g5, cl, links);                     \
    }                                                                                          \
  }
#if NF == 3
#define DGPU_HOP_KERNEL_(mode, g5, cl)                                                         \
  DGPU_HOP_KERNEL_ONE_(HR_CAT(DGPU_(dirac_hop_kernel), _##mode##_##g5##_##cl), mode, g5, cl, 18) \
  DGPU_HOP_KERNEL_ONE_(HR_CAT(DGPU_(dirac_hop_kernel), _##mode##_##g5##_##cl##_12), mode, g5,    \
                       cl, 12)
#else
#define DGPU_HOP_KERNEL_(mode, g5, cl)                                                         \
  DGPU_HOP_KERNEL_ONE_(HR_CAT(DGPU_(dirac_hop_kernel), _##mode##_##g5##_##cl), mode, g5, cl, 18)
#endif
DGPU_HOP_KERNEL_(0, 0, 0)
DGPU_HOP_KERNEL_(0, 0, 1)
DGPU_HOP_KERNEL_(0, 1, 0)
DGPU_HOP_KERNEL_(0, 1, 1)
DGPU_HOP_KERNEL_(1, 0, 0)
DGPU_HOP_KERNEL_(1, 0, 1)
DGPU_HOP_KERNEL_(1, 1, 0)
DGPU_HOP_KERNEL_(1, 1, 1)
DGPU_HOP_KERNEL_(2, 0, 0)
DGPU_HOP_KERNEL_(2, 0, 1)
DGPU_HOP_KERNEL_(2, 1, 0)
DGPU_HOP_KERNEL_(2, 1, 1)
#undef DGPU_HOP_KERNEL_
#undef DGPU_HOP_KERNEL_ONE_

/* One thread per site of the runs rs: the diagonal part. */
HR_KERNEL_BOUNDED(DGPU_(dirac_diag_kernel), DGPU_THREADS, DGPU_REGS, dirac_gpu_args a,
                  dirac_gpu_runs rs) {
  HR_THREAD_LOOP(t) {
    const int ix = dirac_gpu_run_site(&rs, HR_THREAD_INDEX(t));
    if (ix >= 0) {
      HR_GPU_SITE_AT(a.osites, ix, eo, o_off, o_len);
      DGPU_SPINOR v, o;
      DGPU_RD_(DGPU_SPINOR)(o_len, &v, (const DGPU_SPINOR *)a.in + o_off, eo - o_off, 0);
      if (a.cl != NULL) {
        HR_GPU_SITE_AT(a.usites, ix, ex, ux_off, ux_len);
        const HR_CAT(dirac_clover_ref, DGPU_SFX) c =
            DGPU_(dirac_gpu_clover_ref)(a.cl, ux_off, ux_len, ex);
        DGPU_(dirac_site_diag_inplace)(&v, (DGPU_REAL)a.diag, &c);
      } else {
        DGPU_(dirac_site_diag_inplace)(&v, (DGPU_REAL)a.diag, NULL);
      }
      DGPU_(dirac_site_store)(&o, a.g5, &v);
      DGPU_WR_(DGPU_SPINOR)(o_len, &o, (DGPU_SPINOR *)a.out + o_off, eo - o_off, 0);
    }
  }
}

/* One thread per send site of the halo: its projected half spinor into the send area
 * (dirac_gpu_halo_pack). The projection's direction is a constant in each branch. */
HR_KERNEL_BOUNDED(DGPU_(dirac_halo_pack_kernel), 256, DGPU_REGS, dirac_gpu_args a,
                  const int *tab, void *send, int n) {
  HR_THREAD_LOOP(t) {
    const int k = HR_THREAD_INDEX(t);
    if (k < n) {
      const int site = tab[4 * k], dir = tab[4 * k + 1], blk = tab[4 * k + 2],
                len = tab[4 * k + 3];
      HR_CAT(dirac_half_spinor, DGPU_SFX) h;
      switch (dir) {
#define DGPU_PROJECT_(mu)                                                                      \
  case mu: DGPU_(dirac_gpu_project_site)(&h, &a, site, mu, -1); break;                         \
  case mu + 4: DGPU_(dirac_gpu_project_site)(&h, &a, site, mu, +1); break;
        DGPU_PROJECT_(0) DGPU_PROJECT_(1) DGPU_PROJECT_(2) DGPU_PROJECT_(3)
#undef DGPU_PROJECT_
        default: break;
      }
      char *b = (char *)send + (size_t)blk * sizeof h;
      DGPU_WR_(DGPU_VEC)(len, &h.c[0], b, k - blk, 0);
      DGPU_WR_(DGPU_VEC)(len, &h.c[1], b, k - blk, 1);
    }
  }
}

void DGPU_(dirac_gpu_halo_pack)(const dirac_gpu_args *a, const int *tab, void *send, int n) {
  /* on the halo stream (gpu.h) */
  HR_TUNED_LAUNCH_HALO(DGPU_(dirac_halo_pack_kernel), n, HR_TUNE_STREAMING, *a, tab, send, n);
}

void DGPU_(dirac_gpu_hop)(const geometry_descriptor *og, int p0, int p1, const dirac_gpu_args *a) {
  const int links12 = NF == 3 && a->edge != NULL;
  const int variant = 12 * links12 + 4 * a->mode + 2 * (a->g5 != 0) + (a->cl != NULL);
  for (int ixp = p0; ixp < p1;) {
    const dirac_gpu_runs rs = dirac_gpu_runs_of(og, &ixp, p1);
    const int n = rs.first_thread[rs.n];
#define DGPU_CASE_ONE_(name, v)                                                                \
  case v: HR_TUNED_LAUNCH(name, n, HR_TUNE_STREAMING, *a, rs); break;
#if NF == 3
#define DGPU_CASE_(mode, g5, cl)                                                               \
  DGPU_CASE_ONE_(HR_CAT(DGPU_(dirac_hop_kernel), _##mode##_##g5##_##cl), 4 * mode + 2 * g5 + cl) \
  DGPU_CASE_ONE_(HR_CAT(DGPU_(dirac_hop_kernel), _##mode##_##g5##_##cl##_12),                  \
                 12 + 4 * mode + 2 * g5 + cl)
#else
#define DGPU_CASE_(mode, g5, cl)                                                               \
  DGPU_CASE_ONE_(HR_CAT(DGPU_(dirac_hop_kernel), _##mode##_##g5##_##cl), 4 * mode + 2 * g5 + cl)
#endif
    switch (variant) {
      DGPU_CASE_(0, 0, 0) DGPU_CASE_(0, 0, 1) DGPU_CASE_(0, 1, 0) DGPU_CASE_(0, 1, 1)
      DGPU_CASE_(1, 0, 0) DGPU_CASE_(1, 0, 1) DGPU_CASE_(1, 1, 0) DGPU_CASE_(1, 1, 1)
      DGPU_CASE_(2, 0, 0) DGPU_CASE_(2, 0, 1) DGPU_CASE_(2, 1, 0) DGPU_CASE_(2, 1, 1)
      default: break;
    }
#undef DGPU_CASE_
#undef DGPU_CASE_ONE_
  }
}

void DGPU_(dirac_gpu_diag)(const geometry_descriptor *g, const dirac_gpu_args *a) {
  for (int ixp = 0; ixp < g->local_master_pieces;) {
    const dirac_gpu_runs rs = dirac_gpu_runs_of(g, &ixp, g->local_master_pieces);
    HR_TUNED_LAUNCH(DGPU_(dirac_diag_kernel), rs.first_thread[rs.n], HR_TUNE_STREAMING, *a, rs);
  }
}

#undef DGPU_
#undef DGPU_RD_
#undef DGPU_WR_
#undef DGPU_RD_UNITS_
#undef DGPU_REGS
#undef DGPU_THREADS
#undef DGPU_MKCPLX
#undef DGPU_SFX
#undef DGPU_SPINOR
#undef DGPU_VEC
#undef DGPU_MAT
#undef DGPU_CLOVER
#undef DGPU_REAL
#undef DGPU_CPLX
