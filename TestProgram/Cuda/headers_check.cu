/* headers_check.cu -- compile-only check (nvcc, in --enable-gpu=cuda builds) that the public
 * headers work in CUDA device code: complex operators in both precisions, the per-site
 * operations of suN.h, the representation map, the exponential, reunitarisation, random SU(NG)
 * matrices and counter-based random streams, each called from a __global__ kernel. */
#include "hr_complex.h"
#include "representation.h"
#include "suN.h"
#include "suN_random.h"
#include "random.h"

/* Complex arithmetic written with operators, the way shared per-site code is written. */
__global__ void complex_ops_kernel(hr_complex *z, hr_complex_flt *zf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  hr_complex a = z[i], b = hr_cmplx(1.0, -2.0);
  hr_complex c = a * b + 2.0 * a - b / a;
  c += hr_conj(a) * 0.5;
  c -= -c;
  c *= hr_cmplx(0.0, 1.0);
  c = hr_cmul(c, hr_ctimes_i(b)) + hr_conj_cmul(a, b) + hr_cmul_conj(a, b);
  z[i] = c + hr_cabs2(c) + hr_creal(c) + hr_cimag(c) + hr_cexpi(0.25);
  hr_complex_flt f = zf[i];
  hr_complex_flt g = f * f - 1.0f * hr_conj(f) + 2 * f;
  g /= hr_cmplx_flt(2.0f, 1.0f);
  zf[i] = g + hr_cabs2(g) + hr_complex_to_flt(c);
}

/* Link and spinor operations of the compiled theory, double and single precision. */
__global__ void site_ops_kernel(const suNg *u, suNf *uf, suNf_spinor *s, suNf_spinor_flt *sf,
                                double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  suNg U = u[i], V;
  suNg_mul_dag(&V, &U, &U);
  suNg_dag_mul(&V, &V, &U);
  suNg_reunitarize(&V);
  suNf R;
  suNg_to_suNf(&R, &V);
  uf[i] = R;
  suNf_spinor a = s[i], b;
  suNf_spinor_mul_colour(&b, &R, &a);
  suNf_dag_mul_vec_add(&b.c[1], &R, &a.c[0]);
  suNf_spinor_g5(&b, &b);
  suNf_spinor_mul_add(&a, &a, 0.5, &b);
  suNf_vector_add_i(&a.c[0], &a.c[0], &a.c[3]);
  s[i] = a;
  suNf_spinor_flt af;
  suNf_spinor_to_flt(&af, &a);
  suNf_flt Rf;
  suNf_to_flt(&Rf, &R);
  suNf_flt_mul_vec(&af.c[1], &Rf, &af.c[0]);
  sf[i] = af;
  suNg_algebra_vector v;
  suNg_project_to_algebra(&v, &V);
  suNg W;
  suNg_exp(&W, &v);
  hr_complex t[NG * NG - 1];
  suNf_generator_traces(t, &R);
  out[i] = suNf_spinor_sqnorm(&a) + suNf_spinor_flt_re_prod(&af, &af) + hr_creal(suNg_det(&W)) +
           hr_creal(t[0]) + suNg_algebra_vector_sqnorm(&v);
}

/* Random SU(NG) matrices and algebra vectors from a counter-based stream per site. */
__global__ void random_kernel(suNg *u, suNg_algebra_vector *p, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  hr_rng_stream st;
  rng_stream_init(&st, seed, 1, (uint64_t)i);
  suNg_random(&u[i], &st);
  suNg_algebra_vector_random(&p[i], &st);
}

/* Random numbers: one stream per site, as random fields draw them. */
__global__ void draw_uniform(double *out, unsigned long long seed, unsigned long long draw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    hr_rng_stream s;
    rng_stream_init(&s, seed, draw, (unsigned long long)i);
    out[i] = rng_uniform(&s);
  }
}
