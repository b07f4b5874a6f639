# java/launcher.sh: what the Java launchers (java/sidecar, java/jmh/run) share, sourced by both
# (not run by itself): one JDK, one policy for building the jars and the JNI library, one set of
# JVM flags. Build output is shown only when a build fails; a one-line note on stderr says what
# is being built.
#
#   source "$(dirname "$0")/launcher.sh"      # from java/sidecar (java/jmh/run: "/../launcher.sh")
#   launcher_init java/sidecar                 # names the messages; finds the JDK (JAVA_HOME)
#   launcher_build_jar app "$root/java/app/target/sympathy-sidecar.jar" || exit 1
#   launcher_build_jni_library "--impl jni, pinning" || exit 1
#   exec "$JAVA_HOME/bin/java" "${launcher_jvm_flags[@]}" -jar "$jar" "$@"
#
# Sets: root (the checkout), JAVA_HOME (exported), launcher_jni_library (the library's path; its
# profile from SYMPATHY_JNI_PROFILE, below),
# launcher_jvm_flags (native access for FFM and JNI, java.library.path at the library's folder,
# sympathy.experiments at the experiment catalog's folder), launcher_latency_jvm_flags (the
# sidecar's latency flags, below).

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The cargo profile the JNI library is built in and loaded from: release (target/release), or
# dev where SYMPATHY_JNI_PROFILE=dev says so (target/debug/deps, where `cargo test` leaves it:
# ci/test's Java steps, which measure nothing, load the library of its test build).
launcher_jni_profile=${SYMPATHY_JNI_PROFILE:-release}
case $launcher_jni_profile in
    release) launcher_jni_dir="$root/target/release" ;;
    dev) launcher_jni_dir="$root/target/debug/deps" ;;
    *)
        echo "java/launcher.sh: SYMPATHY_JNI_PROFILE is '$launcher_jni_profile'; use release (the default) or dev" >&2
        exit 2
        ;;
esac
launcher_jni_library="$launcher_jni_dir/libsympathy_jni.so"
launcher_jvm_flags=(
    --enable-native-access=ALL-UNNAMED
    "-Djava.library.path=$launcher_jni_dir"
    "-Dsympathy.experiments=$root/experiments"
)
launcher_name=java/launcher.sh
# The flags of a latency-minded JVM, which java/sidecar runs with (its own JVM and, through the
# sympathy.jvm_args property, every child JVM it starts: ChildJvm), and which `run ipc`'s results
# carry as their jvm_args. The hot loops allocate nothing (0 bytes per message), so no collection
# ever runs; these take away the JVM's own threads and periodic work that would otherwise wake on
# one of the cores the two pinned, spinning ends hold (docs/java-performance.md, jitter):
launcher_latency_jvm_flags=(
    -XX:+UseSerialGC  # no concurrent GC threads (G1's refinement and service threads)
    -XX:-UsePerfData  # no hsperfdata file and no statistics sampler waking every 50 ms
    -XX:+UnlockDiagnosticVMOptions
    -XX:GuaranteedSafepointInterval=0 # no periodic safepoint (none happened in our runs either)
)

# launcher_init NAME: NAME prefixes every message; finds a JDK >= 22 with ci/find-jdk (which says
# why when there is none, and the launcher exits) and exports it as JAVA_HOME.
launcher_init() {
    launcher_name=$1
    JAVA_HOME=$("$root/ci/find-jdk")
    export JAVA_HOME
}

# launcher_stale TARGET PATH...: true when TARGET is missing or older than a file under the
# PATHs that `find` selects with the expression after `--` (default: every file).
launcher_stale() {
    local target=$1 paths=()
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        paths+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    [ -f "$target" ] || return 0
    [ -n "$(find "${paths[@]}" -path '*/target' -prune -o -type f \( "${@:--true}" \) -newer "$target" -print -quit)" ]
}

# launcher_quietly WHAT COMMAND...: runs COMMAND with its output kept aside; on failure shows it
# and says that building WHAT failed.
launcher_quietly() {
    local what=$1 log status=0
    shift
    log=$(mktemp)
    "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$log" >&2
        echo "$launcher_name: building $what failed (output above)" >&2
    fi
    rm -f "$log"
    return "$status"
}

# launcher_build_jar MODULE JAR: builds JAR (`mvn -pl MODULE -am -DskipTests package`) when it is
# missing or older than any Java source or POM of java/. Fails (status 1, with a message) when
# Maven is missing or the build fails.
launcher_build_jar() {
    local module=$1 jar=$2
    launcher_stale "$jar" "$root/java" -- -name '*.java' -o -name pom.xml || return 0
    command -v mvn >/dev/null 2>&1 || {
        echo "$launcher_name: Maven (mvn) is needed to build $jar; install it (apt-get install maven)" >&2
        return 1
    }
    echo "$launcher_name: building $jar" >&2
    # Maven's own guava warns about sun.misc.Unsafe on JDK 24+; that is Maven's, not ours.
    MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" \
        launcher_quietly "$jar" mvn -q -B -f "$root/java/pom.xml" -pl "$module" -am -DskipTests package || return 1
    touch "$jar" # a build that found nothing to do must not leave the jar looking stale
}

# launcher_build_jni_library FOR: builds $launcher_jni_library (the Rust ring through JNI: --impl
# jni, thread pinning) with `cargo build --profile $launcher_jni_profile -p sympathy-jni` when it
# is missing or older than the sources of bindings/jni, crates/ring, crates/mapped or
# crates/affinity. FOR says what needs it. Fails (status 1, with a message) when cargo is missing
# or the build fails; the caller decides whether that is fatal.
launcher_build_jni_library() {
    local lib=$launcher_jni_library
    launcher_stale "$lib" "$root/bindings/jni" "$root/crates/ring/src" "$root/crates/mapped/src" "$root/crates/affinity/src" \
        -- -name '*.rs' -o -name Cargo.toml || return 0
    command -v cargo >/dev/null 2>&1 || {
        echo "$launcher_name: cargo is needed to build $lib ($1)" >&2
        return 1
    }
    echo "$launcher_name: building $lib ($1)" >&2
    launcher_quietly "$lib (cargo build --profile $launcher_jni_profile -p sympathy-jni)" \
        cargo build --profile "$launcher_jni_profile" -q -p sympathy-jni --manifest-path "$root/Cargo.toml"
}
