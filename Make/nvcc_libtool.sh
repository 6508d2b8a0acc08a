#!/bin/sh
# nvcc_libtool.sh NVCC ARGS... -- lets libtool compile CUDA sources: libtool calls this script
# as if it were a C compiler (libtool --tag=CC --mode=compile $(SHELL) nvcc_libtool.sh NVCC
# -c file.cu -o file.lo); the script passes the arguments to NVCC, turning the host-compiler
# options libtool adds (-fPIC, -fno-common, ...) into "--compiler-options X". (Write options
# for nvcc's host compiler that way too: libtool itself consumes -Xcompiler.) Used by the
# .cu.lo rule of Make/cuda.am.
nvcc=$1
shift
for arg in "$@"; do
  shift
  case $arg in
    -fPIC|-fpic|-fno-common|-pthread) set -- "$@" --compiler-options "$arg" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "$nvcc" "$@"
