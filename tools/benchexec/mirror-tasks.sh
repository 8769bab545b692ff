#!/usr/bin/env bash
# Makes tools/benchexec/tasks/: the SV-COMP task folders of SRC (default: the shared benchmarks,
# ../../../shared/benchmarks/sv-comp) as symbolic links, plus the property file the task
# definitions name (`../properties/unreach-call.prp`), which BenchExec needs to exist.
#   tools/benchexec/mirror-tasks.sh [SRC]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/../../../shared/benchmarks/sv-comp}" && pwd)
dst=$here/tasks
rm -rf "$dst"
mkdir -p "$dst/properties"
for d in "$src"/*/; do
  ln -s "${d%/}" "$dst/$(basename "$d")"
done
# the property files SV-COMP's task definitions name (BenchExec wants every one to exist)
w() { printf '%s\n' "$2" > "$dst/properties/$1.prp"; }
w unreach-call 'CHECK( init(main()), LTL(G ! call(reach_error())) )'
w termination 'CHECK( init(main()), LTL(F end) )'
w no-overflow 'CHECK( init(main()), LTL(G ! overflow) )'
w valid-memsafety 'CHECK( init(main()), LTL(G valid-free) )
CHECK( init(main()), LTL(G valid-deref) )
CHECK( init(main()), LTL(G valid-memtrack) )'
w valid-memcleanup 'CHECK( init(main()), LTL(G valid-memcleanup) )'
w coverage-branches 'COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )'
w coverage-conditions 'COVER( init(main()), FQL(COVER EDGES(@CONDITIONEDGE)) )'
w coverage-statements 'COVER( init(main()), FQL(COVER EDGES(@BASICBLOCKENTRY)) )'
w coverage-error-call 'COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )'
echo "tasks mirrored in $dst"
