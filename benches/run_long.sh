#!/usr/bin/env bash
# The long-running corpus (fixtures/run-long/: programs over 10^5-10^6 items, long loops,
# megabytes of output) under `rpy-lsp run` (RTyper + LLInterpreter) and `rpy-lsp build`,
# next to the outputs of the reference's binaries: for each program, whether stdout,
# stderr (traceback lines filtered as in the tests) and exit status are identical, and the
# times. `cargo test` builds these programs (tests/build_corpus.rs); their `run` takes
# minutes in the tests' debug build, so it is compared here, with the release build.
#
#   cargo build --release && bash benches/run_long.sh [PROGRAM.py ...]
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(realpath "${RPY_LSP:-$here/target/release/rpy-lsp}")"
root="$here/fixtures/run-long"
if [ $# -eq 0 ]; then set -- "$root"/*.py "$root"/mm_*/main.py; fi
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
filter() { awk '/^RPython traceback:/{t=1; print; next} t && /^  /{next} {t=0; print}' "$1"; }
same() { # base got_out got_err got_status
  cmp -s "$1.stdout" "$2" && [ "$(cat "$1.exit")" = "$4" ] &&
    diff -q <(filter "$1.stderr") <(filter "$3") > /dev/null
}
printf '%-44s %8s %6s %8s %8s %6s\n' program run-s same build-s exe-s same
for prog in "$@"; do
  [ -f "$prog" ] || continue
  prog="$(realpath "$prog")"   # the run happens in a temporary directory
  base="${prog%.py}"
  name="$(basename "$(dirname "$prog")")/$(basename "$base")"; name="${name#run-long/}"
  read -r -a args <<< "$(grep -m1 '^# ARGS:' "$prog" | sed 's/^# ARGS://')"
  s=$(date +%s.%N)
  (cd "$tmp" && "$bin" run "$prog" -- "${args[@]}" > out 2> err < /dev/null); st=$?
  r=$(echo "$(date +%s.%N) - $s" | bc)
  same "$base" "$tmp/out" "$tmp/err" "$st" && rs=yes || rs=NO
  s=$(date +%s.%N)
  "$bin" build "$prog" -o "$tmp/exe" > /dev/null 2>&1
  b=$(echo "$(date +%s.%N) - $s" | bc)
  s=$(date +%s.%N)
  (cd "$tmp" && ./exe "${args[@]}" > out 2> err < /dev/null); st=$?
  e=$(echo "$(date +%s.%N) - $s" | bc)
  same "$base" "$tmp/out" "$tmp/err" "$st" && bs=yes || bs=NO
  printf '%-44s %8.2f %6s %8.2f %8.2f %6s\n' "$name" "$r" "$rs" "$b" "$e" "$bs"
done
