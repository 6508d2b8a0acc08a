#!/bin/sh
# test_ensemble.sh -- an ensemble from start to analysis: HMC/hmc with periodic and with open
# time boundaries saves configurations in every save format (hirep, ildg, openqcd; openqcd in
# SU(3) builds), and every program that reads configurations reads every one of them:
# Converter/converter --info, WilsonFlow/wilson_flow, Spectrum/mk_mesons, Measure/momentum
# (FFTW builds) and a restart of the HMC itself. The plaquette the HMC log printed for the saved
# trajectory, the header plaquette of HiRep files and the plaquette the converter recomputes are
# the same number (open boundaries: the weighted average). The files the converter writes
# (openQCD, ILDG in double and single precision) and momentum's gauge-fixed configuration are
# read by every reader too, and start new HMC chains. Run by make check in the build folder of
# TestProgram/Ensemble. Exit: 0 pass, 1 fail.
bin=../..
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_NUM_THREADS OMP_WAIT_POLICY
work=ensemble_tmp
rm -rf $work && mkdir -p $work || exit 99
. ${HR_SRCDIR:-../..}/TestProgram/Ensemble/ensemble_common.sh
ng=$(sed -n 's/^#define NG \([0-9]*\).*/\1/p' $bin/Include/hr_build_config.h)
formats="hirep ildg"
[ "$ng" = 3 ] && formats="$formats openqcd"

lattice() { # lattice BC_T
  cat <<EOI
GLB_T = 6
GLB_X = 4
GLB_Y = 4
GLB_Z = 4
bc_t = $1
EOI
}
hmc_input() { # hmc_input FILE BC_T FORMAT DIR START NTRAJ
  chain_input "$1" 6 "$2" 17 "$5" "$6" 1 "$3" "$4" ens
}
# readers LABEL BC_T CONF DIR: wilson_flow, mk_mesons and momentum (FFTW builds) read CONF
readers() {
  label=$1; rbc=$2; rconf=$3; rd=$4
  rfbc=$rbc; [ $rbc = antiperiodic ] && rfbc=periodic
  { lattice $rfbc; cat <<EOI
flow:action = wilson
flow:integrator = rk3
flow:eps = 0.01
flow:tmax = 0.02
flow:meas every = 0.02
log:default = 0
EOI
  } > $rd/flow.in
  check "$label: wilson_flow reads it" sh -c "$bin/WilsonFlow/wilson_flow -i $rd/flow.in $rconf > $rd/flow.out 2>&1 && grep -q 'Wact=' $rd/flow.out"
  { lattice $rbc; cat <<EOI
mes:source_t = 2
mes:kappa = 0.12
mes:csw = 1.0
mes:precision = 1e-10
log:default = 0
EOI
  } > $rd/mesons.in
  check "$label: mk_mesons reads it" sh -c "$bin/Spectrum/mk_mesons -i $rd/mesons.in $rconf > $rd/mesons.out 2>&1"
  { lattice $rbc; cat <<EOI
gf:type = none
log:default = 0
EOI
  } > $rd/momentum.in
  if $bin/Measure/momentum -i $rd/momentum.in $rconf > $rd/momentum.out 2>&1; then
    echo "PASS: $label: momentum reads it"
  elif grep -qi "fftw" $rd/momentum.out; then
    echo "SKIP: $label: momentum (this build has no FFTW)"
  else
    echo "FAIL: $label: momentum"; cat $rd/momentum.out; fail=1
  fi
}

for bc in antiperiodic open; do
  fbc=$bc; [ $bc = antiperiodic ] && fbc=periodic
  for fmt in $formats; do
    d=$work/${bc}_$fmt
    mkdir -p $d
    hmc_input $d/hmc.in $bc $fmt $d/confs hot 2
    if ! $bin/HMC/hmc -i $d/hmc.in -o $d/hmc.log > $d/hmc.out 2>&1; then
      echo "FAIL: $bc $fmt: HMC/hmc"; cat $d/hmc.out; tail -20 $d/hmc.log; fail=1; continue
    fi
    conf=$d/confs/ens_n2
    check "$bc $fmt: saved $conf and its .rng" test -s $conf -a -s $conf.rng
    logplaq=$(grep "traj=2 accepted=" $d/hmc.log | sed 's/.* plaquette=\([^ ]*\).*/\1/')
    # the converter
    if $bin/Converter/converter --info $conf > $d/info.out 2>&1; then
      check "$bc $fmt: converter --info: time boundary $fbc" grep -q "^time boundary = $fbc" $d/info.out
      recomputed=$(grep "^plaquette = " $d/info.out | sed 's/^plaquette = //')
      check "$bc $fmt: log plaquette $logplaq = converter's $recomputed" test "$logplaq" = "$recomputed"
      [ $fmt = ildg ] && check "$bc $fmt: the lfn record is the run name and trajectory" \
        grep -q "^lfn = ens_n2\$" $d/info.out
      if [ $fmt = hirep ]; then
        header=$(grep "^header plaquette = " $d/info.out | sed 's/^header plaquette = \([^ ]*\).*/\1/')
        check "$bc $fmt: header plaquette $header = log plaquette" test "$header" = "$logplaq"
      fi
    else
      echo "FAIL: $bc $fmt: converter --info $conf"; cat $d/info.out; fail=1
    fi
    readers "$bc $fmt" $bc $conf $d
    # the HMC continues from it
    hmc_input $d/cont.in $bc $fmt $d/confs $conf 3
    check "$bc $fmt: HMC/hmc continues from it" sh -c "$bin/HMC/hmc -i $d/cont.in > $d/cont.out 2>&1 && test -s $d/confs/ens_n3"
  done
done

# the files other programs write: the converter's (openQCD, ILDG double and single precision)
# and momentum's gauge-fixed configuration; each is read by every reader and starts a new chain
src=$work/antiperiodic_hirep/confs/ens_n2
d=$work/written
mkdir -p $d
converted="ildg64:ildg:64 ildg32:ildg:32"
[ "$ng" = 3 ] && converted="$converted openqcd:openqcd:64"
for c in $converted; do
  name=${c%%:*}; rest=${c#*:}; to=${rest%%:*}; prec=${rest#*:}
  opt=""; [ $to = ildg ] && opt="--precision $prec --lfn $name"
  check "converter writes $name" sh -c "$bin/Converter/converter --from hirep --to $to $opt $src $d/$name > $d/$name.out 2>&1"
done
{ lattice antiperiodic; cat <<EOI
gf:type = coulomb
gf:tolerance = 1e-6
gf:maxiter = 20000
gf:save = $d/fixed
log:default = 0
EOI
} > $d/fix.in
if $bin/Measure/momentum -i $d/fix.in $src > $d/fix.out 2>&1; then
  check "momentum writes the gauge-fixed configuration" test -s $d/fixed
elif grep -qi "fftw" $d/fix.out; then
  echo "SKIP: momentum's gauge-fixed configuration (this build has no FFTW)"
else
  echo "FAIL: momentum writes the gauge-fixed configuration"; cat $d/fix.out; fail=1
fi
for f in $d/ildg64 $d/ildg32 $d/openqcd $d/fixed; do
  [ -s $f ] || continue
  label="$(basename $f) written by $( [ $f = $d/fixed ] && echo momentum || echo the converter)"
  check "$label: converter --info reads it" sh -c "$bin/Converter/converter --info $f > $f.info 2>&1"
  mkdir -p $f.dir
  readers "$label" antiperiodic $f $f.dir
  hmc_input $f.dir/hmc.in antiperiodic hirep $f.dir/confs "$f new chain" 1
  check "$label: HMC/hmc starts a new chain from it" sh -c "$bin/HMC/hmc -i $f.dir/hmc.in > $f.dir/hmc.out 2>&1 && test -s $f.dir/confs/ens_n1"
done
[ $fail -eq 0 ] && rm -rf $work # kept for inspection when a check failed
exit $fail
