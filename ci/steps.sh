# ci/steps.sh: sourced by the ci/ scripts that run in steps (ci/test, ci/java-test,
# ci/verify-quick, ci/map-verify): `step NAME` prints `=== SCRIPT: NAME`, and the previous step's
# time when the next one starts; `steps_done` prints the last step's time and the total;
# `beside`/`joined` (below) run a deterministic check in the background beside the steps.
#   source "$(dirname "$0")/steps.sh"; steps_script=ci/test
steps_script=${steps_script:-$(basename "$0")}
step_name=""
step_started=$SECONDS
steps_started=$SECONDS

step() {
    if [[ -n $step_name ]]; then
        printf '=== %s: %s took %ds\n' "$steps_script" "$step_name" $((SECONDS - step_started))
    fi
    step_name=$*
    step_started=$SECONDS
    printf '\n=== %s: %s\n' "$steps_script" "$*"
}

steps_done() {
    if [[ -n $step_name ]]; then
        printf '=== %s: %s took %ds\n' "$steps_script" "$step_name" $((SECONDS - step_started))
    fi
    local total=$((SECONDS - steps_started))
    printf '=== %s: total %dm%02ds\n' "$steps_script" $((total / 60)) $((total % 60))
}

# `beside NAME COMMAND...` (NAME a plain word) starts COMMAND in the background, its output in
# target/ci-logs/NAME.log, to run beside the steps that follow; `joined NAME` waits for it, prints
# its output and its time, and fails when it failed. Only for checks whose verdict no neighbour
# can change (instruction counts, Miri, loom, a time-boxed fuzzer), and only beside steps whose
# verdicts do not depend on time either: nothing that judges a time or a deadline, or races
# processes against a timeout, runs beside anything. A script that exits early stops what it
# started beside.
declare -A beside_pids=() beside_started=() beside_commands=()
beside() {
    local name=$1
    shift
    mkdir -p target/ci-logs
    # Its own process group (setsid), so that an early exit stops its children (cargo, rustc) too.
    setsid "$@" >"target/ci-logs/$name.log" 2>&1 &
    beside_pids[$name]=$!
    beside_started[$name]=$SECONDS
    beside_commands[$name]=$*
    trap 'for pid in "${beside_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done' EXIT
    printf '=== %s: %s started, beside the next steps (its output: target/ci-logs/%s.log)\n' \
        "$steps_script" "$*" "$name"
}

joined() {
    local name=$1 status=0
    wait "${beside_pids[$name]}" || status=$?
    unset "beside_pids[$name]"
    local command=${beside_commands[$name]}
    printf '\n=== %s: %s, run beside the steps above:\n' "$steps_script" "$command"
    cat "target/ci-logs/$name.log"
    printf '=== %s: %s (beside) took %ds\n' "$steps_script" "$command" $((SECONDS - beside_started[$name]))
    if [[ $status -ne 0 ]]; then
        printf '=== %s: %s FAILED (exit %d; output above)\n' "$steps_script" "$command" "$status" >&2
        return "$status"
    fi
}
