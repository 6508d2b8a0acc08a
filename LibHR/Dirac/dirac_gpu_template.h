/* dirac_gpu_template.h -- the kernels and launchers of dirac_gpu.c for one precision; included
 * twice by dirac_gpu.c (no include guard) with DGPU_SFX (name suffix), DGPU_SPINOR, DGPU_MAT,
 * DGPU_CLOVER and DGPU_REAL defined; they are undefined at the end. */

/* The parameters must be defined by the includer. */
#ifndef DGPU_SFX
#error "dirac_gpu_template.h: define DGPU_SFX (the name suffix, empty or _flt) before including"
#endif
#ifndef DGPU_SPINOR
#error "dirac_gpu_template.h: define DGPU_SPINOR (the spinor type) before including"
#endif
#ifndef DGPU_MAT
#error "dirac_gpu_template.h: define DGPU_MAT (the link matrix type) before including"
#endif
#ifndef DGPU_CLOVER
#error "dirac_gpu_template.h: define DGPU_CLOVER (the clover block type) before including"
#endif
#ifndef DGPU_REAL
#error "dirac_gpu_template.h: define DGPU_REAL (the real type) before including"
#endif

#define DGPU_(name) HR_CAT(name, DGPU_SFX)
#define DGPU_RD_(type) HR_CAT(read_gpu_, type)
#define DGPU_WR_(type) HR_CAT(write_gpu_, type)

/* One thread per site of an output piece starting at index `first` with n sites. */
HR_KERNEL(DGPU_(dirac_hop_kernel), dirac_gpu_args a, int first, int n) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = first + i;
      const DGPU_SPINOR *in = (const DGPU_SPINOR *)a.in;
      const DGPU_MAT *u = (const DGPU_MAT *)a.u;
      DGPU_SPINOR sup[4], sdn[4];
      DGPU_MAT uup[4], udn[4];
      const DGPU_SPINOR *pup[4], *pdn[4];
      const DGPU_MAT *qup[4], *qdn[4];
      HR_GPU_SITE_AT(a.usites, ix, ex, ux_off, ux_len);
      for (int mu = 0; mu < 4; mu++) {
        const int iy = a.iup[4 * ix + mu], iz = a.idn[4 * ix + mu];
        {
          HR_GPU_SITE_AT(a.isites, iy, e, off, len);
          DGPU_RD_(DGPU_SPINOR)(len, &sup[mu], in + off, e - off, 0);
        }
        {
          HR_GPU_SITE_AT(a.isites, iz, e, off, len);
          DGPU_RD_(DGPU_SPINOR)(len, &sdn[mu], in + off, e - off, 0);
        }
        DGPU_RD_(DGPU_MAT)(ux_len, &uup[mu], u + 4 * ux_off, ex - ux_off, mu);
        {
          HR_GPU_SITE_AT(a.usites, iz, e, off, len);
          DGPU_RD_(DGPU_MAT)(len, &udn[mu], u + 4 * off, e - off, mu);
        }
        pup[mu] = &sup[mu];
        pdn[mu] = &sdn[mu];
        qup[mu] = &uup[mu];
        qdn[mu] = &udn[mu];
      }
      DGPU_SPINOR r, o, xv;
      DGPU_(dirac_site_hop)(pup, pdn, qup, qdn, &r);
      HR_GPU_SITE_AT(a.osites, ix, eo, o_off, o_len);
      if (a.x != NULL) DGPU_RD_(DGPU_SPINOR)(o_len, &xv, (const DGPU_SPINOR *)a.x + o_off, eo - o_off, 0);
      const DGPU_SPINOR *px = a.x != NULL ? &xv : NULL;
      if (a.cl != NULL) {
        DGPU_CLOVER c;
        DGPU_RD_(DGPU_CLOVER)(ux_len, &c, (const DGPU_CLOVER *)a.cl + ux_off, ex - ux_off, 0);
        DGPU_(dirac_site_finish)(a.mode, a.g5, (DGPU_REAL)a.s, (DGPU_REAL)a.diag, px, &c, &r, &o);
      } else {
        DGPU_(dirac_site_finish)(a.mode, a.g5, (DGPU_REAL)a.s, (DGPU_REAL)a.diag, px, NULL, &r, &o);
      }
      DGPU_WR_(DGPU_SPINOR)(o_len, &o, (DGPU_SPINOR *)a.out + o_off, eo - o_off, 0);
    }
  }
}

/* One thread per site of a piece: the diagonal part. */
HR_KERNEL(DGPU_(dirac_diag_kernel), dirac_gpu_args a, int first, int n) {
  HR_THREAD_LOOP(t) {
    const int i = HR_THREAD_INDEX(t);
    if (i < n) {
      const int ix = first + i;
      HR_GPU_SITE_AT(a.osites, ix, eo, o_off, o_len);
      DGPU_SPINOR v, o;
      DGPU_RD_(DGPU_SPINOR)(o_len, &v, (const DGPU_SPINOR *)a.in + o_off, eo - o_off, 0);
      if (a.cl != NULL) {
        HR_GPU_SITE_AT(a.usites, ix, ex, ux_off, ux_len);
        DGPU_CLOVER c;
        DGPU_RD_(DGPU_CLOVER)(ux_len, &c, (const DGPU_CLOVER *)a.cl + ux_off, ex - ux_off, 0);
        DGPU_(dirac_site_diag)(a.g5, (DGPU_REAL)a.diag, &c, &v, &o);
      } else {
        DGPU_(dirac_site_diag)(a.g5, (DGPU_REAL)a.diag, NULL, &v, &o);
      }
      DGPU_WR_(DGPU_SPINOR)(o_len, &o, (DGPU_SPINOR *)a.out + o_off, eo - o_off, 0);
    }
  }
}

void DGPU_(dirac_gpu_hop)(const geometry_descriptor *og, int p0, int p1, const dirac_gpu_args *a) {
  for (int ixp = p0; ixp < p1; ixp++) {
    const int n = _PIECE_LENGTH(og, ixp);
    HR_TUNED_LAUNCH(DGPU_(dirac_hop_kernel), n, HR_TUNE_STREAMING, *a, og->master_start[ixp], n);
  }
}

void DGPU_(dirac_gpu_diag)(const geometry_descriptor *g, const dirac_gpu_args *a) {
  _PIECE_FOR(g, ixp) {
    const int n = _PIECE_LENGTH(g, ixp);
    HR_TUNED_LAUNCH(DGPU_(dirac_diag_kernel), n, HR_TUNE_STREAMING, *a, g->master_start[ixp], n);
  }
}

#undef DGPU_
#undef DGPU_RD_
#undef DGPU_WR_
#undef DGPU_SFX
#undef DGPU_SPINOR
#undef DGPU_MAT
#undef DGPU_CLOVER
#undef DGPU_REAL
