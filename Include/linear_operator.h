/* linear_operator.h -- the abstract linear operator on spinor fields that the solvers
 * (inverters.h) see and the Dirac operators (dirac.h: dirac_linear_operator) provide: a type
 * only, no code.
 * Implemented in: Memory (header only: a type). */
#ifndef LINEAR_OPERATOR_H
#define LINEAR_OPERATOR_H

#include "fields.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A linear operator on spinor fields of one geometry. apply is required; apply_flt (the
 * same operator in single precision) is needed by the mixed-precision solvers; apply_dag
 * (the adjoint; NULL for a Hermitian operator) by CGNE / CGNR. ctx is passed to every call.
 * flops: floating-point operations of one application (over all processes; 0 if unknown),
 * used for the flop counts of the result. out and in are always different fields. */
typedef struct hr_linear_operator {
  void (*apply)(spinor_field *out, const spinor_field *in, void *ctx);
  void (*apply_flt)(spinor_field_flt *out, const spinor_field_flt *in, void *ctx);
  void (*apply_dag)(spinor_field *out, const spinor_field *in, void *ctx);
  void (*apply_dag_flt)(spinor_field_flt *out, const spinor_field_flt *in, void *ctx);
  void *ctx;
  double flops;
} hr_linear_operator;

#ifdef __cplusplus
}
#endif

#endif
