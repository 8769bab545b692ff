#!/usr/bin/env bash
# Runs `predabs check TASK.yml --witness W.yml` on every SV-COMP task under a folder (default:
# the shared benchmarks, ../shared/benchmarks/sv-comp), then `predabs validate TASK.yml --witness
# W.yml` on each witness, and prints one row per task and a summary:
#   tests/witness/shared-tasks.sh [TASK_DIR] [OUT_DIR]
# Environment: PREDABS (the binary, default target/native/predabs), TIMEOUT (seconds per check
# and per validation, default 30).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$here/../shared/benchmarks/sv-comp}
out=${2:-$(mktemp -d /tmp/predabs-witnesses.XXXXXX)}
predabs=${PREDABS:-$here/target/native/predabs}
timeout=${TIMEOUT:-30}
mkdir -p "$out"
printf '%-34s %-8s %-20s %-8s %-8s %s\n' task expected verdict witness validity reason
tasks=0 verdicts=0 correct=0 written=0 valid=0 invalid=0 unknown=0
while IFS= read -r yml; do
  grep -q 'unreach-call' "$yml" || continue
  name=$(basename "$yml" .yml)
  tasks=$((tasks + 1))
  expected=$(awk '/property_file:.*unreach-call/ {u=1; next} /property_file:/ {u=0} u && /expected_verdict:/ {print $2; exit}' "$yml")
  w="$out/$name.witness.yml"
  rm -f "$w"
  json=$(timeout $((timeout + 30)) "$predabs" check "$yml" --witness "$w" --json --timeout "$timeout" 2>"$out/$name.check.err")
  verdict=$(printf '%s' "$json" | sed -n 's/^  "sv_comp": "\(.*\)",$/\1/p')
  verdict=${verdict:-crash}
  has=no validity=- reason=
  if [ "$verdict" = true ] || [ "$verdict" = "false(unreach-call)" ]; then
    verdicts=$((verdicts + 1))
    [ "${verdict%%(*}" = "$expected" ] && correct=$((correct + 1))
    if [ -s "$w" ]; then
      has=yes written=$((written + 1))
      vjson=$(timeout $((2 * timeout + 30)) "$predabs" validate "$yml" --witness "$w" --json --timeout "$timeout" 2>/dev/null)
      validity=$(printf '%s' "$vjson" | sed -n 's/^  "validity": "\(.*\)",$/\1/p')
      reason=$(printf '%s' "$vjson" | tr -d '\n' | sed -n 's/.*"reasons": \[ *"\([^"]*\)".*/\1/p' | cut -c1-70)
      validity=${validity:-crash}
      case $validity in VALID) valid=$((valid + 1)) ;; INVALID) invalid=$((invalid + 1)) ;; *) unknown=$((unknown + 1)) ;; esac
    else
      reason=$(tail -1 "$out/$name.check.err" | cut -c1-70)
    fi
  fi
  printf '%-34s %-8s %-20s %-8s %-8s %s\n' "$name" "$expected" "$verdict" "$has" "$validity" "$reason"
done < <(find "$dir" -name '*.yml' | sort)
echo "tasks: $tasks, verdicts (true/false): $verdicts ($correct as expected), witnesses written: $written, VALID: $valid, INVALID: $invalid, UNKNOWN: $unknown"
echo "witnesses in $out"
