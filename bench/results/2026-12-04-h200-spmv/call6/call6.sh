cd /work/main 2>/dev/null || true
. scripts/gpu_libs.sh; gpu_libs_setup "$PWD/build-gpu" "$PWD/.carry" >/dev/null; base=$LD_LIBRARY_PATH
M=.carry/matrices/vsp_befref_fxm_2_4_air02.mtx.gz; E=.carry/matrices/email-Enron.mtx.gz
pick() { if [ "$1" = old ]; then b=.carry/old/magnus; ld=$PWD/.carry/old:${base#*:}; else b=build-gpu/tools/magnus; ld=$base; fi; }
for r in 1 2 3; do for w in new old; do pick $w
  LD_LIBRARY_PATH=$ld MAGNUS_BACKENDS=cuda $b bench $M $E --systems cuda:0 --runs 20 --no-bandwidth --csv $OUT/$w-$r.csv >/dev/null 2>&1
  python3 -c "import csv; print('$w $r', ' '.join(x['input'][:8]+' '+x['time_median_ms'] for x in csv.DictReader(open('$OUT/$w-$r.csv')) if x['status']=='ok'))"
done; done
for w in old new; do pick $w
  LD_LIBRARY_PATH=$ld MAGNUS_BACKENDS=cuda timeout 100 ncu --clock-control none --csv --metrics gpu__time_duration.sum $b multiply $M --algorithm magnus > $OUT/ncu-$w.csv 2>/dev/null
  echo "== $w"; python3 .carry/tools/ncu_kernels.py $OUT/ncu-$w.csv --top 14
done
