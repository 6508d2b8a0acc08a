/* dirac_ops_template.c -- the Wilson / Wilson-clover operators written once for both
 * precisions; included twice by dirac.c (not compiled alone). Parameters: DOP_SFX (name
 * suffix), DOP_SPINOR, DOP_MAT, DOP_FIELD (spinor field kind), DOP_CLOVER (clover site type),
 * DOP_CLOVER_KIND (clover field kind), DOP_REAL, DOP_PACK(ls) (packed host links of that
 * precision of a links state: 8 per site, forward then backward, see dirac_internal.h),
 * DOP_GPU_LINKS(ls) (device copy of the links of that precision on glattice),
 * DOP_CLOVER_BLOCKS(cs) (the two clover fields of that precision of a clover state: [0]
 * blocks, [1] inverses), DOP_G5(out, in) (out = gamma5 in, linear algebra of that precision),
 * DOP_HALF (the half spinor of that precision, dirac_site.h), DOP_SINGLE (1 in single
 * precision, 0 in double: the class of the prefetch timing, dirac_cpu_prefetch).
 *
 * Every operator takes its links and clover blocks from the derived state of its dirac_op
 * (rebuilt when the gauge field's version changed), brings its input to the side it runs on
 * (CPU loops, or GPU kernels when dirac_on_gpu(D)) and marks its output written there, so
 * host and device copies are never read stale. */
#if !defined(DOP_SFX) || !defined(DOP_SPINOR) || !defined(DOP_MAT) || !defined(DOP_FIELD) ||  \
    !defined(DOP_CLOVER) || !defined(DOP_CLOVER_KIND) || !defined(DOP_REAL) ||                 \
    !defined(DOP_PACK) || !defined(DOP_GPU_LINKS) || !defined(DOP_CLOVER_BLOCKS) ||           \
    !defined(DOP_G5) || !defined(DOP_HALF) || !defined(DOP_SINGLE)
#error "dirac_ops_template.c: define DOP_SFX, DOP_SPINOR, DOP_MAT, DOP_FIELD, DOP_CLOVER, DOP_CLOVER_KIND, DOP_REAL, DOP_PACK, DOP_GPU_LINKS, DOP_CLOVER_BLOCKS, DOP_G5, DOP_HALF and DOP_SINGLE before including it"
#endif

#define DOP_(name) HR_CAT(name, DOP_SFX)
#define DOP_U_(name) HR_CAT(HR_CAT(name, DOP_SFX), _)
#define DOP_K_(verb) HR_CAT(verb, DOP_FIELD)
#define DOP_CK_(verb) HR_CAT(verb, DOP_CLOVER_KIND)

/* The received half spinor of index iy of the halo h, or NULL when iy is not in its receive
 * buffers (or h is NULL). */
DIRAC_ALWAYS_INLINE const DOP_HALF *DOP_(halo_half)(const dirac_halo *h, int iy) {
  if (h == NULL || (unsigned)(iy - h->halo_lo) >= (unsigned)(h->halo_hi - h->halo_lo))
    return NULL;
  const int pos = h->halo_pos[iy - h->halo_lo];
  return pos >= 0 ? (const DOP_HALF *)h->recv + pos : NULL;
}

/* *acc += the bytes at p, read in vectors of 32 bytes (the data-only mode of the CPU loops;
 * the vector passed by address: no vector crosses a function's ABI). */
typedef DOP_REAL DOP_(dirac_touch_v) __attribute__((vector_size(32)));
DIRAC_ALWAYS_INLINE void DOP_(touch_add)(DOP_(dirac_touch_v) *acc, const void *p, size_t bytes) {
  const size_t whole = bytes / sizeof *acc * sizeof *acc;
  for (size_t o = 0; o < whole; o += sizeof *acc) {
    DOP_(dirac_touch_v) t;
    __builtin_memcpy(&t, (const char *)p + o, sizeof t);
    *acc += t;
  }
  if (whole < bytes) { /* the tail of fewer than 32 bytes */
    DOP_(dirac_touch_v) t = {0};
    __builtin_memcpy(&t, (const char *)p + whole, bytes - whole);
    *acc += t;
  }
}

/* The data-only form of dirac_cpu_site_halo (dirac_set_cpu_data_only): reads every byte the
 * site kernel reads (8 links, 8 neighbours or their received half spinors, x, the clover
 * element) and writes the whole output spinor with their sum, without the arithmetic of the
 * operator: its time is the bound of the operator's memory access pattern. */
DIRAC_ALWAYS_INLINE void DOP_(touch_site)(DOP_SPINOR *out, const DOP_SPINOR *x,
                                          const DOP_CLOVER *cl, const DOP_SPINOR *const up[4],
                                          const DOP_SPINOR *const dn[4],
                                          const DOP_HALF *const *hup, const DOP_HALF *const *hdn,
                                          const DOP_MAT *links) {
  DOP_(dirac_touch_v) acc = {0};
  DOP_(touch_add)(&acc, links, 8 * sizeof(DOP_MAT));
  DIRAC_CPU_UNROLL
  for (int mu = 0; mu < 4; mu++) {
    if (hup != NULL && hup[mu] != NULL) DOP_(touch_add)(&acc, hup[mu], sizeof(DOP_HALF));
    else DOP_(touch_add)(&acc, up[mu], sizeof(DOP_SPINOR));
    if (hdn != NULL && hdn[mu] != NULL) DOP_(touch_add)(&acc, hdn[mu], sizeof(DOP_HALF));
    else DOP_(touch_add)(&acc, dn[mu], sizeof(DOP_SPINOR));
  }
  if (x != NULL) DOP_(touch_add)(&acc, x, sizeof(DOP_SPINOR));
  if (cl != NULL) DOP_(touch_add)(&acc, cl, sizeof(DOP_CLOVER));
  const size_t whole = sizeof(DOP_SPINOR) / sizeof acc * sizeof acc;
  for (size_t o = 0; o < whole; o += sizeof acc) __builtin_memcpy((char *)out + o, &acc, sizeof acc);
  if (whole < sizeof(DOP_SPINOR))
    __builtin_memcpy((char *)out + whole, &acc, sizeof(DOP_SPINOR) - whole);
}

/* The hopping application of the CPU loops at output site ix (dirac_cpu_site_pk): the
 * neighbours from in (element 0 = index ishift), the 8 packed links of u (in the layout of
 * dirac_cpu_pack_site), the epilogue's x (on the output geometry, shift oshift) and host
 * clover elements cl (glattice); h: the received half spinors of the halo, or NULL where no
 * neighbour lies in it (inner pieces).
 * pf: the prefetch setting (dirac.h): from DIRAC_PREFETCH_NEIGHBOURS on, the neighbours of
 * the site DIRAC_PF_DIST ahead while below pf_end; with DIRAC_PREFETCH_ON also the links, x and
 * clover blocks of the site DIRAC_PF_STREAM ahead, and in double precision those of the
 * site DIRAC_PF_L2 ahead into L2. data_only:
 * touch_site instead of the kernel (benchmarks; the output is then not the operator's). */
DIRAC_ALWAYS_INLINE void DOP_(hop_site)(int ix, DOP_SPINOR *out, int oshift, const DOP_SPINOR *in,
                                        int ishift, const DOP_MAT *u, int mode, int g5, DOP_REAL s,
                                        DOP_REAL diag, const DOP_SPINOR *x, const DOP_CLOVER *cl,
                                        const dirac_halo *h, int pf_end, int pf, int data_only) {
  const int ushift = glattice.master_shift;
  const DOP_SPINOR *up[4], *dn[4];
  const DOP_HALF *hup[4], *hdn[4];
  const DOP_MAT *ux = u + 8 * (ix - ushift);
  DIRAC_CPU_UNROLL
  for (int mu = 0; mu < 4; mu++) {
    const int iy = iup(ix, mu), iz = idn(ix, mu);
    up[mu] = in + (iy - ishift);
    dn[mu] = in + (iz - ishift);
    hup[mu] = DOP_(halo_half)(h, iy);
    hdn[mu] = DOP_(halo_half)(h, iz);
  }
  if (pf >= DIRAC_PREFETCH_ON && ix + DIRAC_PF_STREAM < pf_end) {
    /* the sequential streams of the site DIRAC_PF_STREAM ahead, which the hardware prefetcher
     * alone leaves waiting where they come from memory */
    const int js = ix + DIRAC_PF_STREAM;
    DIRAC_PREFETCH(u + 8 * (js - ushift), 8 * sizeof(DOP_MAT));
    if (cl != NULL) DIRAC_PREFETCH(cl + (js - ushift), sizeof(DOP_CLOVER));
    if (x != NULL) DIRAC_PREFETCH(x + (js - oshift), sizeof(DOP_SPINOR));
    /* double precision: the same streams of the site DIRAC_PF_L2 ahead into L2 as well, so
     * that the prefetch into L1 finds them there and the core's few L1 misses in flight are
     * not spent waiting for memory (in single precision no gain, a small cost in cache) */
    if (!DOP_SINGLE && ix + DIRAC_PF_L2 < pf_end) {
      const int jl = ix + DIRAC_PF_L2;
      DIRAC_PREFETCH_L2(u + 8 * (jl - ushift), 8 * sizeof(DOP_MAT));
      if (cl != NULL) DIRAC_PREFETCH_L2(cl + (jl - ushift), sizeof(DOP_CLOVER));
      if (x != NULL) DIRAC_PREFETCH_L2(x + (jl - oshift), sizeof(DOP_SPINOR));
    }
  }
  if (pf >= DIRAC_PREFETCH_NEIGHBOURS && ix + DIRAC_PF_DIST < pf_end) {
    /* prefetch the scattered neighbours of a site a few iterations ahead; in double their
     * received half spinors where they lie in the halo (written by another core: 5 to 10%
     * off the boundary pieces; in single the look-ups cost more than they save, Doc/dirac.md,
     * "Halos through node memory") */
    const int jx = ix + DIRAC_PF_DIST;
    const dirac_halo *const hpf = DOP_SINGLE ? NULL : h;
    DIRAC_CPU_UNROLL
    for (int mu = 0; mu < 4; mu++) {
      const int jy = iup(jx, mu), jz = idn(jx, mu);
      if (jy >= ishift && jz >= ishift) {
        const DOP_HALF *hy = DOP_(halo_half)(hpf, jy), *hz = DOP_(halo_half)(hpf, jz);
        if (hy != NULL) DIRAC_PREFETCH(hy, sizeof(DOP_HALF));
        else DIRAC_PREFETCH(in + (jy - ishift), sizeof(DOP_SPINOR));
        if (hz != NULL) DIRAC_PREFETCH(hz, sizeof(DOP_HALF));
        else DIRAC_PREFETCH(in + (jz - ishift), sizeof(DOP_SPINOR));
      }
    }
  }
  const DOP_SPINOR *xs = x != NULL ? x + (ix - oshift) : NULL;
  const DOP_CLOVER *cs = cl != NULL ? cl + (ix - ushift) : NULL;
  if (data_only) {
    DOP_(touch_site)(out + (ix - oshift), xs, cs, up, dn, h != NULL ? hup : NULL,
                     h != NULL ? hdn : NULL, ux);
    return;
  }
  DOP_(dirac_cpu_site_pk)(out + (ix - oshift), mode, g5, s, diag, xs, cs, up, dn,
                          h != NULL ? hup : NULL, h != NULL ? hdn : NULL, ux);
}

/* CPU loop of the hopping term over pieces p0 .. p1-1 of og (u: packed links), ending each
 * site with the epilogue of dirac_site_finish (dirac_cpu_site; x on og, cl on glattice);
 * h: the received half spinors of the halo (boundary pieces), or NULL; progress: the halo
 * exchange in flight during the inner pieces (or NULL); pf: the prefetch setting (hop_site;
 * with DIRAC_PREFETCH_INTERLEAVED each thread walks its share of a piece as two interleaved
 * halves); data_only: the data-only form of each site (touch_site). */
static void DOP_(hop_pieces)(const geometry_descriptor *og, int p0, int p1, DOP_SPINOR *out,
                             const DOP_SPINOR *in, int ishift, const DOP_MAT *u, int mode, int g5,
                             DOP_REAL s, DOP_REAL diag, const DOP_SPINOR *x,
                             const DOP_CLOVER *cl, const dirac_halo *h,
                             hr_comm_request *progress, int pf, int data_only) {
  const int oshift = og->master_shift;
  /* last master index of the range + 1: prefetches stay among master sites */
  const int pf_end = p1 > p0 ? og->master_end[p1 - 1] + 1 : 0;
  if (pf == DIRAC_PREFETCH_INTERLEAVED) {
    /* sites lo, lo + half, lo + 1, lo + half + 1, ...: two sequential streams of every array
     * at once for the hardware prefetcher (Doc/dirac.md, "Two streams per thread"); the
     * same sites, so the same bits */
    HR_OMP_PRAGMA(omp parallel)
    for (int p = p0; p < p1; p++) {
      long lo, hi;
      hr_thread_share(og->master_start[p], og->master_end[p] + 1, &lo, &hi);
      for (long k = 0; k < hi - lo; k++) {
        const int ix = (int)hr_interleaved_index(lo, hi, k);
        DOP_(hop_site)(ix, out, oshift, in, ishift, u, mode, g5, s, diag, x, cl, h, pf_end, pf,
                       data_only);
        if (progress != NULL && ix % DIRAC_POLL_SITES == 0 && dirac_master_thread())
          sendrecv_progress(progress);
      }
    }
    return;
  }
  if (h == NULL && progress == NULL) {
    _OMP_PIECE_RANGE_FOR(og, p0, p1, ix) {
      DOP_(hop_site)(ix, out, oshift, in, ishift, u, mode, g5, s, diag, x, cl, NULL, pf_end, pf,
                     data_only);
    }
  } else if (h == NULL) { /* inner pieces while the halo is exchanged: the master thread
                             lets the exchange progress every DIRAC_POLL_SITES of its sites */
    _OMP_PIECE_RANGE_FOR(og, p0, p1, ix) {
      DOP_(hop_site)(ix, out, oshift, in, ishift, u, mode, g5, s, diag, x, cl, NULL, pf_end, pf,
                     data_only);
      if (ix % DIRAC_POLL_SITES == 0 && dirac_master_thread()) sendrecv_progress(progress);
    }
  } else {
    _OMP_PIECE_RANGE_FOR(og, p0, p1, ix) {
      DOP_(hop_site)(ix, out, oshift, in, ishift, u, mode, g5, s, diag, x, cl, h, pf_end, pf,
                     data_only);
    }
  }
}

/* The half spinors of the send buffers of h from the master sites of in (element 0 = index
 * ishift): (1 -/+ gamma_mu) psi projected as the receiving process's hopping sum needs it. */
static void DOP_(halo_pack)(const dirac_halo *h, const DOP_SPINOR *in, int ishift) {
  const int n = h->nsites;
  HR_OMP_PRAGMA(omp parallel for schedule(static))
  for (int k = 0; k < n; k++) {
    const DOP_SPINOR *psi = in + (h->send_site[k] - ishift);
    /* position k of the own send area or of the node partner's receive area */
    DOP_HALF *dst = (DOP_HALF *)h->send_to[h->send_buf[k]] + k;
    switch (h->send_dir[k]) { /* constant directions: the projections fold */
#define DOP_PROJECT_(mu)                                                                       \
  case mu: DOP_(dirac_cpu_spin_project)(dst, mu, -1, psi); break;                               \
  case mu + 4: DOP_(dirac_cpu_spin_project)(dst, mu, +1, psi); break;
      DOP_PROJECT_(0) DOP_PROJECT_(1) DOP_PROJECT_(2) DOP_PROJECT_(3)
#undef DOP_PROJECT_
      default: break;
    }
  }
}

/* out = hopping term of in (parity of in -> parity of out) with the epilogue of
 * dirac_site_finish; clover < 0: no clover (the number diag), else the blocks (0) or their
 * inverses (1) of D when csw != 0. Halo exchange of in overlapped with the inner pieces. */
static void DOP_(hop)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in, int mode, int g5,
                      DOP_REAL s, DOP_REAL diag, const DOP_FIELD *x, int clover) {
  const geometry_descriptor *og = out->type, *ig = in->type;
  const dirac_links_state *ls = dirac_links_state_of(D);
  const dirac_clover_state *cs = clover >= 0 ? dirac_clover_state_of(D) : NULL;
  const DOP_CLOVER_KIND *clf = cs != NULL ? &DOP_CLOVER_BLOCKS(cs)[clover] : NULL;
  const int p_split = dirac_overlap ? og->inner_master_pieces : 0;
  if (dirac_on_gpu(D)) {
#if HR_GPU_ENABLED
    dirac_gpu_args a = dirac_gpu_args_for(og, ig);
    dirac_gpu_args_links(&a, D);
    a.in = DOP_K_(sync_gpu_)(in);
    a.x = x != NULL ? DOP_K_(sync_gpu_)(x) : NULL;
    a.u = DOP_GPU_LINKS(ls);
    a.cl = clf != NULL ? DOP_CK_(sync_gpu_)(clf) : NULL;
    a.out = DOP_K_(gpu_write_)(out);
    a.mode = mode;
    a.g5 = g5;
    a.s = s;
    a.diag = diag;
    /* the halo as half spinors projected on the device (dirac_halo_gpu_of), exchanged while
     * the inner pieces are computed; the boundary pieces read them (a.halo_tab) */
    const dirac_halo *h = dirac_halo_gpu_of(ig);
    hr_comm_request *req = NULL;
    if (h != NULL) { /* on the halo stream, after the kernels that wrote in */
      const double t0 = hr_wtime();
      hr_gpu_halo_after_compute();
      DOP_(dirac_gpu_halo_pack)(&a, h->dev_send_tab, h->dev_send, h->nsites);
      dirac_halo_gpu_begin(h, sizeof(DOP_HALF));
      dirac_comm.exchanges++;
      dirac_comm.bytes_sent += (double)h->nsites * (double)sizeof(DOP_HALF);
      dirac_comm.pack_seconds += hr_wtime() - t0;
    }
    DOP_(dirac_gpu_hop)(og, 0, p_split, &a); /* the interior, while the halo stream packs */
    if (h != NULL) {
      const double t1 = hr_wtime();
      req = dirac_halo_gpu_start(h, sizeof(DOP_HALF));
      dirac_halo_gpu_complete(h, req, sizeof(DOP_HALF));
      dirac_comm.wait_seconds += hr_wtime() - t1;
      a.halo_tab = h->dev_halo_tab;
      a.halo_recv = h->dev_recv;
      a.halo_lo = h->halo_lo;
      a.halo_n = h->halo_hi - h->halo_lo;
    }
    DOP_(dirac_gpu_hop)(og, p_split, og->local_master_pieces, &a);
#endif
    return;
  }
  const DOP_SPINOR *ip = DOP_K_(sync_host_)(in);
  const DOP_SPINOR *xp = x != NULL ? DOP_K_(sync_host_)(x) : NULL;
  const DOP_CLOVER *cl = clf != NULL ? DOP_CK_(sync_host_)(clf) : NULL;
  DOP_SPINOR *op = DOP_K_(host_write_)(out);
  /* the halo as half spinors (dirac_halo), exchanged while the inner pieces are computed */
  dirac_halo *h = dirac_halo_of(ig);
  hr_comm_request *req;
  if (h != NULL) {
    const double t0 = hr_wtime();
    dirac_halo_begin(h);
    DOP_(halo_pack)(h, ip, ig->master_shift);
    req = dirac_halo_start(h, sizeof(DOP_HALF));
    dirac_comm.exchanges++;
    dirac_comm.bytes_sent += (double)h->nsites * (double)sizeof(DOP_HALF);
    dirac_comm.bytes_node += (double)dirac_halo_node_sites(h) * (double)sizeof(DOP_HALF);
    dirac_comm.pack_seconds += hr_wtime() - t0;
  } else {
    req = start_sendrecv_field(ig, HR_LAYOUT_SPINOR, (void *)(uintptr_t)ip, sizeof(DOP_SPINOR));
  }
  /* the prefetch setting: as chosen by timing for this class of kernel (dirac.c; the
   * epilogue class of dirac_cpu_prefetch) */
  const int epilogue =
      cl != NULL ? (clover == 1 ? DIRAC_EPILOGUE_INVERSE : DIRAC_EPILOGUE_CLOVER)
                 : (xp != NULL ? DIRAC_EPILOGUE_X : DIRAC_EPILOGUE_BARE);
  dirac_pf_tuner *const pft = dirac_pf_tuner_of(DOP_SINGLE, epilogue, og);
  const int pf = dirac_pf_setting(pft);
  const double tpf = hr_wtime();
  DOP_(hop_pieces)(og, 0, p_split, op, ip, ig->master_shift, DOP_PACK(ls), mode, g5, s, diag, xp,
                   cl, NULL, h != NULL ? req : NULL, pf, dirac_data_only);
  const double t1 = hr_wtime();
  if (h != NULL)
    dirac_halo_complete(h, req);
  else
    complete_sendrecv(req);
  const double t2 = hr_wtime();
  DOP_(hop_pieces)(og, p_split, og->local_master_pieces, op, ip, ig->master_shift, DOP_PACK(ls),
                   mode, g5, s, diag, xp, cl, h, NULL, pf, dirac_data_only);
  if (h != NULL) dirac_halo_end(h); /* the partners may write the next halo */
  const double t3 = hr_wtime();
  if (!dirac_data_only) dirac_pf_record(pft, pf, t3 - tpf); /* the kernels' timing only */
  if (h != NULL) { /* where the time of an application with a halo goes */
    dirac_comm.wait_seconds += t2 - t1;
    dirac_comm.inner_seconds += t1 - tpf;
    dirac_comm.boundary_seconds += t3 - t2;
    for (int p = 0; p < og->local_master_pieces; p++)
      *(p < p_split ? &dirac_comm.inner_sites : &dirac_comm.boundary_sites) +=
          _PIECE_LENGTH(og, p);
  }
}

/* Diagonal part site by site: out = M in or M^-1 in (M = 4 + m0 + C), times gamma5 if g5. */
static void DOP_(diag_apply)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in,
                             int inverse, int g5) {
  const geometry_descriptor *g = in->type;
  const dirac_clover_state *cs = dirac_clover_state_of(D);
  const DOP_CLOVER_KIND *clf = cs != NULL ? &DOP_CLOVER_BLOCKS(cs)[inverse ? 1 : 0] : NULL;
  const DOP_REAL f = (DOP_REAL)(inverse ? 1. / (4. + D->m0) : 4. + D->m0);
  if (dirac_on_gpu(D)) {
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
    DOP_(dirac_site_diag)(&t, g5, f, cl != NULL ? cl + (ix - glattice.master_shift) : NULL,
                          ip + (ix - shift));
    op[ix - shift] = t;
  }
}

/* Temporary field `which` (0..3) of this precision on g (allocated once per geometry,
 * kept; -1 frees all). */
static DOP_FIELD *DOP_(tmp_field)(int which, const geometry_descriptor *g) {
  static DOP_FIELD *buf[4] = {NULL, NULL, NULL, NULL};
  static int made_for[4] = {-1, -1, -1, -1}; /* geometry_generation() of each */
  if (which < 0) {
    for (int i = 0; i < 4; i++) {
      DOP_K_(free_)(buf[i]);
      buf[i] = NULL;
    }
    return NULL;
  }
  if (buf[which] == NULL || buf[which]->type != g || made_for[which] != geometry_generation()) {
    DOP_K_(free_)(buf[which]);
    buf[which] = DOP_K_(alloc_)(1, g);
    made_for[which] = geometry_generation();
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

static void DOP_(full_op)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in, int g5) {
  DOP_(hop)(out, D, in, DIRAC_HOP_PLUS_DIAG, g5, (DOP_REAL)-0.5, (DOP_REAL)(4. + D->m0), in, 0);
}

/* out = D_diag^-1 D_hop in in one sweep, between parities (Dphi_hop_inv). */
static void DOP_(hop_inv)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(hop)(out, D, in, DIRAC_HOP_THEN_INV, 0, (DOP_REAL)-0.5, (DOP_REAL)(4. + D->m0), NULL, 1);
}

static void DOP_(eopre_op)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in, int g5) {
  DOP_FIELD *tmp = DOP_(tmp_field)(0, &glat_odd);
  /* tmp_o = D_oo^-1 D_oe in = D_oo^-1 (-1/2 H_oe in) */
  DOP_(hop_inv)(tmp, D, in);
  /* out_e = D_ee in - D_eo tmp_o = D_ee in + 1/2 H_eo tmp_o */
  DOP_(hop)(out, D, tmp, DIRAC_HOP_PLUS_DIAG, g5, (DOP_REAL)0.5, (DOP_REAL)(4. + D->m0), in, 0);
}

/* Whether out and in live on opposite parities (glat_even and glat_odd, either way). */
static int DOP_(opposite_parities)(const DOP_FIELD *out, const DOP_FIELD *in) {
  return (out->type == &glat_even && in->type == &glat_odd) ||
         (out->type == &glat_odd && in->type == &glat_even);
}

void DOP_(Dphi_hop)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_hop", out, in, NULL);
  if (!DOP_(opposite_parities)(out, in) && !(out->type == &glattice && in->type == &glattice))
    hr_error("Dphi_hop: out and in must be on (glat_even, glat_odd), (glat_odd, glat_even) or "
             "(glattice, glattice)");
  DOP_(hop)(out, D, in, DIRAC_HOP_PLAIN, 0, (DOP_REAL)-0.5, 0, NULL, -1);
}

void DOP_(Dphi_hop_inv)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_hop_inv", out, in, NULL);
  if (!DOP_(opposite_parities)(out, in))
    hr_error("Dphi_hop_inv: out and in must be on (glat_even, glat_odd) or (glat_odd, glat_even)");
  DOP_(hop_inv)(out, D, in);
}

void DOP_(Dphi)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi", out, in, &glattice);
  DOP_(full_op)(out, D, in, 0);
}

void DOP_(g5Dphi)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi", out, in, &glattice);
  DOP_(full_op)(out, D, in, 1);
}

void DOP_(g5Dphi_sq)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_sq", out, in, &glattice);
  DOP_FIELD *tmp = DOP_(tmp_field)(1, &glattice);
  DOP_(full_op)(tmp, D, in, 1);
  DOP_(full_op)(out, D, tmp, 1);
}

void DOP_(Dphi_eopre)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("Dphi_eopre", out, in, &glat_even);
  DOP_(eopre_op)(out, D, in, 0);
}

void DOP_(g5Dphi_eopre)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_eopre", out, in, &glat_even);
  DOP_(eopre_op)(out, D, in, 1);
}

void DOP_(g5Dphi_eopre_sq)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  DOP_(check_types)("g5Dphi_eopre_sq", out, in, &glat_even);
  DOP_FIELD *tmp = DOP_(tmp_field)(2, &glat_even);
  DOP_(eopre_op)(tmp, D, in, 1);
  DOP_(eopre_op)(out, D, tmp, 1);
}

void DOP_(Dphi_diag)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  hr_assert(out->type == in->type, "Dphi_diag: out and in must have the same geometry");
  DOP_(diag_apply)(out, D, in, 0, 0);
}

void DOP_(Dphi_diag_inv)(DOP_FIELD *out, const dirac_op *D, const DOP_FIELD *in) {
  hr_assert(out->type == in->type, "Dphi_diag_inv: out and in must have the same geometry");
  DOP_(diag_apply)(out, D, in, 1, 0);
}

/* The solvers' view: out = form(D) in, and its adjoint (gamma5 M gamma5 for D and
 * Dphi_eopre, M itself for the Hermitian forms), on temporary 3. */
static void DOP_(form_apply)(DOP_FIELD *out, const dirac_op *D, dirac_form form,
                             const DOP_FIELD *in) {
  switch (form) {
    case DIRAC_FORM_D: DOP_(Dphi)(out, D, in); break;
    case DIRAC_FORM_Q: DOP_(g5Dphi)(out, D, in); break;
    case DIRAC_FORM_Q2: DOP_(g5Dphi_sq)(out, D, in); break;
    case DIRAC_FORM_EO: DOP_(Dphi_eopre)(out, D, in); break;
    case DIRAC_FORM_QEO: DOP_(g5Dphi_eopre)(out, D, in); break;
    case DIRAC_FORM_QEO2: DOP_(g5Dphi_eopre_sq)(out, D, in); break;
  }
}
static void DOP_(form_apply_dag)(DOP_FIELD *out, const dirac_op *D, dirac_form form,
                                 const DOP_FIELD *in) {
  if (form != DIRAC_FORM_D && form != DIRAC_FORM_EO) {
    DOP_(form_apply)(out, D, form, in);
    return;
  }
  /* (gamma5 M gamma5) in = gamma5 (gamma5 M) (gamma5 in) */
  DOP_FIELD *t = DOP_(tmp_field)(3, in->type);
  DOP_G5(t, in);
  DOP_(form_apply)(out, D, form == DIRAC_FORM_D ? DIRAC_FORM_Q : DIRAC_FORM_QEO, t);
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
#undef DOP_PACK
#undef DOP_GPU_LINKS
#undef DOP_CLOVER_BLOCKS
#undef DOP_G5
#undef DOP_HALF
#undef DOP_SINGLE
