# ci/steps.sh: sourced by the ci/ scripts that run in steps (ci/test, ci/java-test,
# ci/verify-quick, ci/map-verify): `step NAME` prints `=== SCRIPT: NAME`, and the previous step's
# time when the next one starts; `steps_done` prints the last step's time and the total.
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
