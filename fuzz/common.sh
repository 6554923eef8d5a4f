# Shared by run-smoke and run-long (sourced, not run): where the seeds and dictionaries of
# each target are. FUZZ is this directory, REPO the repository.
FUZZ=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$FUZZ/.." && pwd)
# The shared test corpus (generated/ and real/); optional, used when present.
CORPUS=${KIFVIEW_CORPUS:-$REPO/../shared/corpus}

# The dictionary file for TARGET (empty: none). load and write_read take every word at once.
dict_for() {
    case $1 in
    read_csa | csa_roundtrip) echo "$FUZZ/dict/csa.dict" ;;
    read_jkf) echo "$FUZZ/dict/jkf.dict" ;;
    read_usi) echo "$FUZZ/dict/usi.dict" ;;
    config | index) echo "" ;;
    load | write_read)
        mkdir -p "$FUZZ/corpus"
        cat "$FUZZ"/dict/*.dict >"$FUZZ/corpus/all.dict"
        echo "$FUZZ/corpus/all.dict"
        ;;
    *) echo "$FUZZ/dict/kif.dict" ;;
    esac
}

# Seed directories for TARGET that exist: in-repo ones always, the shared corpus when
# `with_shared` is given. libFuzzer reads them recursively and never writes to them.
# tests/fixtures/fuzz (inputs that once failed) seeds every target but config.
seeds_for() {
    local t=$1 with_shared=${2:-} dirs=() fx="$REPO/tests/fixtures"
    case $t in
    read_kif) dirs=("$fx/kif" "$FUZZ/seeds/bod") ;;
    read_ki2) dirs=("$fx/ki2") ;;
    read_csa) dirs=("$fx/csa") ;;
    read_jkf) dirs=("$fx/jkf") ;;
    read_usi) dirs=("$fx/usi" "$FUZZ/seeds/usi") ;;
    read_bod) dirs=("$FUZZ/seeds/bod" "$fx/kif/valid") ;;
    config) dirs=("$FUZZ/seeds/config") ;;
    index) dirs=("$FUZZ/seeds/index") ;;
    *) dirs=("$fx/kif" "$fx/ki2" "$fx/csa" "$fx/jkf" "$fx/usi" "$FUZZ/seeds/usi" "$FUZZ/seeds/bod") ;;
    esac
    [ "$t" = config ] || dirs+=("$fx/fuzz")
    if [ -n "$with_shared" ] && [ -d "$CORPUS" ]; then
        case $t in
        read_usi | read_bod | config | index) ;;
        *) dirs+=("$CORPUS/generated" "$CORPUS/real") ;;
        esac
    fi
    for d in "${dirs[@]}"; do [ -d "$d" ] && echo "$d"; done
}

# The two fuzz crates: this one (targets that use the core crate alone) and lib/ (targets
# that need the kifview library: config, index). Both build into $FUZZ/target.
FUZZ_DIRS=("$FUZZ" "$FUZZ/lib")

# The targets of both crates, as `cargo fuzz list` would print them (read from their
# Cargo.toml, no build needed).
targets() {
    for d in "${FUZZ_DIRS[@]}"; do
        sed -n 's/^name = "\(.*\)"$/\1/p' "$d/Cargo.toml" | grep -v '^kifview'
    done
}

# The crate folder that holds TARGET.
fuzz_dir_of() {
    if grep -qx "name = \"$1\"" "$FUZZ/lib/Cargo.toml"; then echo "$FUZZ/lib"; else echo "$FUZZ"; fi
}

# cargo fuzz build (-s none, niced) of both crates, or of the one holding a target named in
# the arguments, into $FUZZ/target: the crates both use are built once. Arguments go to
# cargo fuzz (--dev, a target).
build_targets() {
    local dirs=("${FUZZ_DIRS[@]}") a
    for a in "$@"; do
        case $a in -*) ;; *) dirs=("$(fuzz_dir_of "$a")") ;; esac
    done
    for d in "${dirs[@]}"; do
        (cd "$FUZZ" && nice -n 19 cargo fuzz build -s none --fuzz-dir "$d" --target-dir "$FUZZ/target" "$@") ||
            return 1
    done
}

# Where `cargo fuzz build -s none` puts the binaries: `release` (the default, for long runs),
# or `debug` after `cargo fuzz build --dev` (the smoke run's build).
bin_dir() {
    echo "$FUZZ/target/$(rustc -vV | sed -n 's/^host: //p')/${1:-release}"
}

# libFuzzer's -max_len for TARGET: the round-trip targets write and read every record several
# times, so they take at most 8 KB (larger seeds are cut) to keep a few hundred runs a second.
# FUZZ_MAX_LEN overrides it.
max_len_for() {
    case $1 in
    write_read | kif_roundtrip | csa_roundtrip | newlines) echo "${FUZZ_MAX_LEN:-8192}" ;;
    # Edits of the index's files: 8 bytes each (at most 8 are read), then their data.
    index) echo "${FUZZ_MAX_LEN:-1024}" ;;
    *) echo "${FUZZ_MAX_LEN:-}" ;;
    esac
}
