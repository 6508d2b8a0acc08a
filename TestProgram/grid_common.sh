# grid_common.sh -- sourced (". grid_common.sh") by the run_grid.sh scripts of TestProgram/*
# with the test file as $1, e.g. grid_2x1x1x1.grid. It leaves NP_T NP_X NP_Y NP_Z in "$@",
# the grid in $grid ("2x1x1x1") and the number of processes in $nproc; sets OMP_NUM_THREADS
# (default $grid_threads, else 2) and passive OpenMP waiting (oversubscribed MPI runs stay
# fast); exits 77 (skip) for a multi-process grid in a build without MPI; and defines
#   launch NPROC PROGRAM ARGS...   run under $HR_MPIRUN --oversubscribe in MPI builds.
grid=$(basename "$1" .grid)
grid=${grid#grid_}
set -- $(echo "$grid" | tr x ' ')
if [ $# -ne 4 ]; then
  echo "run_grid.sh: cannot read a process grid from '$grid'" >&2
  exit 99
fi
nproc=$(($1 * $2 * $3 * $4))
OMP_NUM_THREADS=${OMP_NUM_THREADS:-${grid_threads:-2}}
export OMP_NUM_THREADS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
if [ -z "$HR_MPIRUN" ] && [ "$nproc" -ne 1 ]; then
  echo "grid $grid needs an MPI build"
  exit 77
fi
launch() { # launch NPROC PROGRAM ARGS...
  launch_n=$1
  shift
  if [ -n "$HR_MPIRUN" ]; then
    echo "== $HR_MPIRUN -np $launch_n --oversubscribe $*"
    "$HR_MPIRUN" -np "$launch_n" --oversubscribe "$@"
  else
    echo "== $*"
    "$@"
  fi
}
