/* clover_leaf_template.h -- the clover-leaf field strength F_mu,nu(x) = (Q - Q^+) / 8, Q the sum
 * of the four plaquette leaves at x in the (mu, nu) plane, written once for the gauge
 * observables (suNg links of a gauge_view, Include/gauge_view_paths.h) and the clover term of
 * the Dirac operators (represented suNf links of a dirac_links_view,
 * LibHR/Dirac/dirac_state_sites.h). F is antihermitian and kept by its independent parts
 * (CLT_NAME(antiherm)); each leaf is made in place a link at a time and only its
 * antihermitian part P - P^+ is summed, so that besides the sum one matrix and a row are held
 * (GPU registers: in device code each link entry is read where it is used). No include guard:
 * included once per user after defining
 *   CLT_NAME(x)                   the name of a generated type or function, e.g. gauge_view_##x
 *   CLT_MAT, CLT_DIM              the link matrix type and its dimension (suNg, NG)
 *   CLT_M_(op)                    its operations: CLT_M_(_dagger) is suNg_dagger
 *   CLT_VIEW                      the view type of the links
 *   CLT_LINK(out, v, ix, mu)      *out = U_mu(ix), CLT_LINK_ENTRY(v, ix, mu, k) its entry k
 *   CLT_UP(v, ix, mu), CLT_DN(v, ix, mu)   the neighbours of ix
 * which are undefined at the end.
 * Implemented in: Memory (header only; internal, not installed: included by
 *  LibHR/Dirac/dirac_state_sites.h and LibHR/Observables/gauge_view_paths.h). */

#ifndef CLT_NAME
#error "clover_leaf_template.h: define CLT_NAME, CLT_MAT, CLT_DIM, CLT_M_, CLT_VIEW, CLT_LINK, CLT_LINK_ENTRY, CLT_UP and CLT_DN before including"
#endif

/* An antihermitian matrix by its independent parts: the imaginary parts of the diagonal and
 * the entries above it, row by row. */
typedef struct {
  double diag[CLT_DIM];
  hr_complex up[CLT_DIM * (CLT_DIM - 1) / 2];
} CLT_NAME(antiherm);

/* Entry (i, j) of the antihermitian a. */
HR_INLINE hr_complex CLT_NAME(antiherm_entry)(const CLT_NAME(antiherm) * a, int i, int j) {
  if (i == j) return hr_cmplx(0., a->diag[i]);
  const int lo = i < j ? i : j, hi = i < j ? j : i;
  const hr_complex z = a->up[lo * (2 * CLT_DIM - lo - 1) / 2 + (hi - lo - 1)];
  return i < j ? z : -hr_conj(z);
}

/* m = the antihermitian a as a matrix. */
HR_INLINE void CLT_NAME(antiherm_to_matrix)(CLT_MAT *m, const CLT_NAME(antiherm) * a) {
  for (int i = 0; i < CLT_DIM; ++i)
    for (int j = 0; j < CLT_DIM; ++j) m->c[i * CLT_DIM + j] = CLT_NAME(antiherm_entry)(a, i, j);
}

/* a (+)= m - m^+ (by its independent parts); first != 0 writes a instead of adding. */
HR_INLINE void CLT_NAME(antiherm_add_part)(CLT_NAME(antiherm) * a, int first, const CLT_MAT *m) {
  int u = 0;
  HR_DEVICE_UNROLL
  for (int i = 0; i < CLT_DIM; ++i) {
    const double d = 2.0 * hr_cimag(m->c[i * CLT_DIM + i]);
    a->diag[i] = first ? d : a->diag[i] + d;
    HR_DEVICE_UNROLL
    for (int j = i + 1; j < CLT_DIM; ++j, ++u) {
      const hr_complex z = m->c[i * CLT_DIM + j] - hr_conj(m->c[j * CLT_DIM + i]);
      a->up[u] = first ? z : a->up[u] + z;
    }
  }
}

/* Re tr(a b) of two antihermitian matrices: -sum_i a_ii b_ii - 2 sum_i<j Re(a_ij conj(b_ij))
 * (imaginary parts of the diagonals). */
HR_INLINE double CLT_NAME(antiherm_re_trace_mul)(const CLT_NAME(antiherm) * a,
                                                 const CLT_NAME(antiherm) * b) {
  double s = 0.0;
  HR_DEVICE_UNROLL
  for (int i = 0; i < CLT_DIM; ++i) s -= a->diag[i] * b->diag[i];
  HR_DEVICE_UNROLL
  for (int u = 0; u < CLT_DIM * (CLT_DIM - 1) / 2; ++u)
    s -= 2.0 * hr_creal(hr_cmul_conj(a->up[u], b->up[u]));
  return s;
}

/* m = m W a row at a time in place, W = U_mu(ix) (dag = 0) or U_mu(ix)^+ (dag = 1), each
 * entry of the link read from the view where it is used (again for each row: from cache), so
 * that besides m only a row is held: the device-code form of CLT_NAME(add_leaf) (registers).
 * The products and sums of CLT_M_(_mul_left_inplace) and CLT_M_(_mul_dag), which the host
 * form uses, in the same order (the sum starts from 0, which can only change the sign of an
 * exact zero). */
HR_INLINE void CLT_NAME(mul_link_inplace)(CLT_MAT *m, const CLT_VIEW *v, int ix, int mu,
                                          int dag) {
  HR_DEVICE_UNROLL
  for (int i = 0; i < CLT_DIM; ++i) {
    hr_complex row[CLT_DIM];
    HR_GPU_LOAD_BARRIER();
    HR_DEVICE_UNROLL
    for (int j = 0; j < CLT_DIM; ++j) {
      hr_complex s = hr_cmplx(0., 0.);
      HR_DEVICE_UNROLL
      for (int k = 0; k < CLT_DIM; ++k) {
        const hr_complex e = dag ? hr_conj(CLT_LINK_ENTRY(v, ix, mu, j * CLT_DIM + k))
                                 : CLT_LINK_ENTRY(v, ix, mu, k * CLT_DIM + j);
        s += hr_cmul(m->c[i * CLT_DIM + k], e);
      }
      row[j] = s;
    }
    HR_DEVICE_UNROLL
    for (int j = 0; j < CLT_DIM; ++j) m->c[i * CLT_DIM + j] = row[j];
  }
}

/* a (+)= P - P^+, P the product of four links (link mus[0] of ixs[0], its adjoint when
 * dags[0], times the links (ixs[k], mus[k], dags[k]) in turn, left to right), made in place;
 * first != 0 writes a instead of adding. */
HR_INLINE void CLT_NAME(add_leaf)(CLT_NAME(antiherm) * a, int first, const CLT_VIEW *v,
                                  const int ixs[4], const int mus[4], const int dags[4]) {
  CLT_MAT m;
  CLT_LINK(&m, v, ixs[0], mus[0]);
  if (dags[0]) {
    const CLT_MAT t = m;
    CLT_M_(_dagger)(&m, &t);
  }
#ifdef __CUDA_ARCH__
  /* device code: the links read where they are used (registers) */
  HR_DEVICE_UNROLL
  for (int k = 1; k < 4; ++k) CLT_NAME(mul_link_inplace)(&m, v, ixs[k], mus[k], dags[k]);
#else
  /* host: the three links read at once (their loads overlap), then the same products */
  CLT_MAT w[3];
  for (int k = 1; k < 4; ++k) CLT_LINK(&w[k - 1], v, ixs[k], mus[k]);
  for (int k = 1; k < 4; ++k) {
    if (dags[k]) {
      const CLT_MAT t = m;
      CLT_M_(_mul_dag)(&m, &t, &w[k - 1]);
    } else {
      CLT_M_(_mul_left_inplace)(&m, &w[k - 1]);
    }
  }
#endif
  CLT_NAME(antiherm_add_part)(a, first, &m);
}

/* f = F_mu,nu(x) = (Q - Q^+) / 8 by its independent parts, Q the sum of the four plaquette
 * leaves in the (mu, nu) plane that start and end at ix, counter-clockwise; its traceless part
 * when traceless != 0. */
HR_INLINE void CLT_NAME(clover_F)(CLT_NAME(antiherm) * f, const CLT_VIEW *v, int ix, int mu,
                                  int nu, int traceless) {
  const int xpm = CLT_UP(v, ix, mu), xmm = CLT_DN(v, ix, mu), xpn = CLT_UP(v, ix, nu),
            xmn = CLT_DN(v, ix, nu);
  { /* U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+ */
    const int i[4] = {ix, xpm, xpn, ix}, m[4] = {mu, nu, mu, nu}, d[4] = {0, 0, 1, 1};
    CLT_NAME(add_leaf)(f, 1, v, i, m, d);
  }
  { /* U_nu(x) U_mu(x+nu-mu)^+ U_nu(x-mu)^+ U_mu(x-mu) */
    const int i[4] = {ix, CLT_DN(v, xpn, mu), xmm, xmm}, m[4] = {nu, mu, nu, mu},
              d[4] = {0, 1, 1, 0};
    CLT_NAME(add_leaf)(f, 0, v, i, m, d);
  }
  { /* U_mu(x-mu)^+ U_nu(x-mu-nu)^+ U_mu(x-mu-nu) U_nu(x-nu) */
    const int xmm_mn = CLT_DN(v, xmn, mu);
    const int i[4] = {xmm, xmm_mn, xmm_mn, xmn}, m[4] = {mu, nu, mu, nu}, d[4] = {1, 1, 0, 0};
    CLT_NAME(add_leaf)(f, 0, v, i, m, d);
  }
  { /* U_nu(x-nu)^+ U_mu(x-nu) U_nu(x+mu-nu) U_mu(x)^+ */
    const int i[4] = {xmn, xmn, CLT_DN(v, xpm, nu), ix}, m[4] = {nu, mu, nu, mu},
              d[4] = {1, 0, 0, 1};
    CLT_NAME(add_leaf)(f, 0, v, i, m, d);
  }
  double tr = 0.0;
  if (traceless) {
    HR_DEVICE_UNROLL
    for (int i = 0; i < CLT_DIM; ++i) tr += f->diag[i] * 0.125;
    tr /= (double)CLT_DIM;
  }
  HR_DEVICE_UNROLL
  for (int i = 0; i < CLT_DIM; ++i) f->diag[i] = f->diag[i] * 0.125 - tr;
  HR_DEVICE_UNROLL
  for (int u = 0; u < CLT_DIM * (CLT_DIM - 1) / 2; ++u) f->up[u] = 0.125 * f->up[u];
}

#undef CLT_NAME
#undef CLT_MAT
#undef CLT_DIM
#undef CLT_M_
#undef CLT_VIEW
#undef CLT_LINK
#undef CLT_LINK_ENTRY
#undef CLT_UP
#undef CLT_DN
