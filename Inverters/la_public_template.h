/* la_public_template.h -- the public functions of linear_algebra.h for one precision,
 * included twice by linear_algebra.c with
 *   LA_FIELD  the field type (spinor_field or spinor_field_flt)
 *   LA_TAG    the suffix of the internal functions (_f or _f_flt)
 * The public names are <op>_<LA_FIELD>.
 * Each function packs its coefficients and calls LA_RUN_ / LA_RUN_REDUCE_, which check that
 * the fields share one geometry, bring the copies the operation reads to the backend's side,
 * mark the written ones current there only, and run the CPU loop or the GPU launcher of the
 * operation (named after it, see la_internal.h). No include guard. */

/* The parameters must be defined by the includer. */
#ifndef LA_FIELD
#error "la_public_template.h: define LA_FIELD (the field type, e.g. spinor_field or spinor_field_flt) before including"
#endif
#ifndef LA_TAG
#error "la_public_template.h: define LA_TAG (the name suffix, _f or _f_flt) before including"
#endif

#define LA_NAME_(op) HR_CAT(op##_, LA_FIELD)
#define LA_NONE_ ((LA_FIELD *)NULL)
#define LA_PREPARE_ HR_CAT(la_prepare, LA_TAG)

/* Check the fields of `op` (slot mask `mask`), sync the read ones to the side `gpu`, mark
 * the written ones; returns their geometry. */
static const geometry_descriptor *LA_PREPARE_(const char *op, int mask, int gpu,
                                              const LA_FIELD *f0, const LA_FIELD *f1,
                                              const LA_FIELD *f2, const LA_FIELD *f3) {
  const LA_FIELD *f[4] = {f0, f1, f2, f3};
  const geometry_descriptor *gs[4];
  for (int i = 0; i < 4; i++) gs[i] = f[i] ? f[i]->type : NULL;
  const geometry_descriptor *g = la_common_geometry(op, mask, gs);
  for (int i = 0; i < 4; i++) {
    if (!LA_READS(mask, i)) continue;
    if (gpu)
      HR_CAT(sync_gpu_, LA_FIELD)(f[i]);
    else
      HR_CAT(sync_host_, LA_FIELD)(f[i]);
  }
  for (int i = 0; i < 4; i++) {
    if (!LA_WRITES(mask, i)) continue;
    hr_field_check_idle(f[i]->exchange, op);
    ((LA_FIELD *)f[i])->current = gpu ? HR_COPY_GPU : HR_COPY_HOST; /* a written slot */
    ((LA_FIELD *)f[i])->version = hr_field_new_version();
  }
  return g;
}

#define LA_HOST_(f) ((f) ? (f)->ptr : NULL)
#define LA_DEV_(f) ((f) ? (f)->gpu_ptr : NULL)

/* Run streaming operation `op` on the fields f0..f3 (LA_NONE_ for unused slots). */
#define LA_RUN_(op, a, f0, f1, f2, f3)                                                         \
  do {                                                                                         \
    const int gpu_ = hr_backend_current() == HR_BACKEND_GPU;                               \
    const geometry_descriptor *g_ =                                                            \
        LA_PREPARE_(HR_STR(LA_NAME_(op)), LA_MASK_##op, gpu_, f0, f1, f2, f3);                 \
    if (gpu_)                                                                                  \
      LA_GPU_CALL_(HR_CAT(la_gpu_##op, LA_TAG), a, g_, LA_DEV_(f0), LA_DEV_(f1), LA_DEV_(f2),  \
                   LA_DEV_(f3));                                                               \
    else                                                                                       \
      HR_CAT(la_cpu_##op, LA_TAG)(a, g_, LA_HOST_(f0), LA_HOST_(f1), LA_HOST_(f2),             \
                                  LA_HOST_(f3));                                               \
  } while (0)

/* Run reduction `op`: res[] is its exact sum over the processes (reduction.h). */
#define LA_RUN_REDUCE_(op, a, res, f0, f1, f2, f3)                                             \
  do {                                                                                         \
    const int gpu_ = hr_backend_current() == HR_BACKEND_GPU;                               \
    const geometry_descriptor *g_ =                                                            \
        LA_PREPARE_(HR_STR(LA_NAME_(op)), LA_MASK_##op, gpu_, f0, f1, f2, f3);                 \
    res[0] = res[1] = 0;                                                                       \
    if (gpu_)                                                                                  \
      LA_GPU_CALL_(HR_CAT(la_gpu_##op, LA_TAG), a, g_, LA_DEV_(f0), LA_DEV_(f1), LA_DEV_(f2),  \
                   LA_DEV_(f3), res);                                                          \
    else                                                                                       \
      HR_CAT(la_cpu_##op, LA_TAG)(a, g_, LA_HOST_(f0), LA_HOST_(f1), LA_HOST_(f2),             \
                                  LA_HOST_(f3), res);                                          \
  } while (0)

void LA_NAME_(mul)(LA_FIELD *r, double c, const LA_FIELD *s) {
  LA_RUN_(mul, la_real(c, 0), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(mulc)(LA_FIELD *r, hr_complex z, const LA_FIELD *s) {
  LA_RUN_(mulc, la_cmplx(z), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(mul_add_assign)(LA_FIELD *r, double c, const LA_FIELD *s) {
  LA_RUN_(mul_add_assign, la_real(c, 0), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(mulc_add_assign)(LA_FIELD *r, hr_complex z, const LA_FIELD *s) {
  LA_RUN_(mulc_add_assign, la_cmplx(z), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(add)(LA_FIELD *r, const LA_FIELD *s1, const LA_FIELD *s2) {
  LA_RUN_(add, la_real(0, 0), r, s1, s2, LA_NONE_);
}
void LA_NAME_(sub)(LA_FIELD *r, const LA_FIELD *s1, const LA_FIELD *s2) {
  LA_RUN_(sub, la_real(0, 0), r, s1, s2, LA_NONE_);
}
void LA_NAME_(add_assign)(LA_FIELD *r, const LA_FIELD *s) {
  LA_RUN_(add_assign, la_real(0, 0), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(sub_assign)(LA_FIELD *r, const LA_FIELD *s) {
  LA_RUN_(sub_assign, la_real(0, 0), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(lc)(LA_FIELD *r, double c1, const LA_FIELD *s1, double c2, const LA_FIELD *s2) {
  LA_RUN_(lc, la_real(c1, c2), r, s1, s2, LA_NONE_);
}
void LA_NAME_(lc_add_assign)(LA_FIELD *r, double c1, const LA_FIELD *s1, double c2,
                            const LA_FIELD *s2) {
  LA_RUN_(lc_add_assign, la_real(c1, c2), r, s1, s2, LA_NONE_);
}
void LA_NAME_(minus)(LA_FIELD *r, const LA_FIELD *s) {
  LA_RUN_(minus, la_real(0, 0), r, s, LA_NONE_, LA_NONE_);
}
void LA_NAME_(g5)(LA_FIELD *r, const LA_FIELD *s) { LA_RUN_(g5, la_real(0, 0), r, s, LA_NONE_, LA_NONE_); }
void LA_NAME_(g5_assign)(LA_FIELD *r) {
  LA_RUN_(g5_assign, la_real(0, 0), r, LA_NONE_, LA_NONE_, LA_NONE_);
}
void LA_NAME_(cg_direction)(LA_FIELD *p, double b, const LA_FIELD *r) {
  LA_RUN_(cg_direction, la_real(b, 0), p, r, LA_NONE_, LA_NONE_);
}

double LA_NAME_(sqnorm)(const LA_FIELD *s) {
  double res[2];
  LA_RUN_REDUCE_(sqnorm, la_real(0, 0), res, s, LA_NONE_, LA_NONE_, LA_NONE_);
  return res[0];
}
hr_complex LA_NAME_(prod)(const LA_FIELD *r, const LA_FIELD *s) {
  double res[2];
  LA_RUN_REDUCE_(prod, la_real(0, 0), res, r, s, LA_NONE_, LA_NONE_);
  return hr_cmplx(res[0], res[1]);
}
double LA_NAME_(prod_re)(const LA_FIELD *r, const LA_FIELD *s) {
  double res[2];
  LA_RUN_REDUCE_(prod_re, la_real(0, 0), res, r, s, LA_NONE_, LA_NONE_);
  return res[0];
}
double LA_NAME_(prod_im)(const LA_FIELD *r, const LA_FIELD *s) {
  double res[2];
  LA_RUN_REDUCE_(prod_im, la_real(0, 0), res, r, s, LA_NONE_, LA_NONE_);
  return res[0];
}
hr_complex LA_NAME_(g5_prod)(const LA_FIELD *r, const LA_FIELD *s) {
  double res[2];
  LA_RUN_REDUCE_(g5_prod, la_real(0, 0), res, r, s, LA_NONE_, LA_NONE_);
  return hr_cmplx(res[0], res[1]);
}
double LA_NAME_(g5_prod_re)(const LA_FIELD *r, const LA_FIELD *s) {
  return hr_creal(LA_NAME_(g5_prod)(r, s));
}
double LA_NAME_(cg_update)(LA_FIELD *x, LA_FIELD *r, double a, const LA_FIELD *p,
                           const LA_FIELD *q) {
  hr_assert(x != r && x != p && x != q && r != p && r != q && p != q,
            HR_STR(LA_NAME_(cg_update)) ": x, r, p, q must be four different fields");
  double res[2];
  LA_RUN_REDUCE_(cg_update, la_real(a, 0), res, x, r, p, q);
  return res[0];
}

#undef LA_NAME_
#undef LA_NONE_
#undef LA_PREPARE_
#undef LA_HOST_
#undef LA_DEV_
#undef LA_RUN_
#undef LA_RUN_REDUCE_
#undef LA_FIELD
#undef LA_TAG
