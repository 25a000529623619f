#!/usr/bin/env bash
# Builds Fixtures/DemoApp into a real Demo.xcarchive (Xcode's layout) with Debian's LLVM, on Linux.
#
#   scripts/build-demo-archive.sh OUTPUT_DIR [--mismatch]
#
# Writes OUTPUT_DIR/Demo.xcarchive (replacing it) and nothing else: objects are built in a temporary folder,
# never in the repository. With --mismatch, the main executable is relinked from a changed source after its
# dSYM was made, so its UUIDs no longer match (what gate.dsym must catch).
#
# Tools: clang, ld64.lld, llvm-lipo, dsymutil (Debian: clang-14 lld-14 llvm-14, installed with apt-get when
# missing and running as root). On macOS, Xcode's clang, ld, lipo and dsymutil when LLVM's are not on PATH.
# Override with CLANG, LD64, LIPO, DSYMUTIL.
# SOURCE_DATE_EPOCH, when set, fixes the archive's CreationDate, so two builds of the same sources are identical.
# Exit status: 0 built, 2 usage, 3 toolchain missing.
set -euo pipefail

usage() { echo "usage: $0 OUTPUT_DIR [--mismatch]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
output_dir=$1
shift
mismatch=0
for argument in "$@"; do
    case $argument in
        --mismatch) mismatch=1 ;;
        *) usage ;;
    esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fixture=$here/Fixtures/DemoApp

# First of the candidates that exists on PATH.
find_tool() {
    local candidate
    for candidate in "$@"; do
        if command -v "$candidate" >/dev/null 2>&1; then command -v "$candidate"; return 0; fi
    done
    return 1
}

locate_tools() {
    CLANG=${CLANG:-$(find_tool clang-14 clang || true)}
    # Apple's ld is ld64's successor and takes the same options; elsewhere `ld` is GNU's, which links no Mach-O.
    if [[ $(uname -s) == Darwin ]]; then
        LD64=${LD64:-$(find_tool ld64.lld-14 ld64.lld ld || true)}
    else
        LD64=${LD64:-$(find_tool ld64.lld-14 ld64.lld || true)}
    fi
    LIPO=${LIPO:-$(find_tool llvm-lipo-14 llvm-lipo lipo || true)}
    DSYMUTIL=${DSYMUTIL:-$(find_tool dsymutil-14 dsymutil || true)}
}

locate_tools
if [[ -z $CLANG || -z $LD64 || -z $LIPO || -z $DSYMUTIL ]]; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
        echo "build-demo-archive: installing clang-14 lld-14 llvm-14" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 clang-14 lld-14 llvm-14 >&2 \
            || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q clang-14 lld-14 llvm-14 >&2; }
        locate_tools
    fi
fi
if [[ -z $CLANG || -z $LD64 || -z $LIPO || -z $DSYMUTIL ]]; then
    echo "build-demo-archive: missing toolchain (clang='$CLANG' ld64.lld='$LD64' llvm-lipo='$LIPO' dsymutil='$DSYMUTIL')." >&2
    echo "  Debian/Ubuntu: sudo apt-get install clang-14 lld-14 llvm-14" >&2
    echo "  macOS: xcode-select --install (clang, ld, lipo, dsymutil)" >&2
    exit 3
fi

mkdir -p "$output_dir"
output_dir=$(cd "$output_dir" && pwd)
# A fixed scratch folder (removed on exit) rather than a random one, and zero object timestamps in the debug
# map: the linker records object paths and times there, and they feed the UUIDs. Same sources, same UUIDs.
work=$output_dir/.demo-archive-build
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
export ZERO_AR_DATE=1

# dsymutil runs `lipo` to write fat dSYMs: give it one.
mkdir -p "$work/bin"
ln -s "$LIPO" "$work/bin/lipo"
export PATH="$work/bin:$PATH"

cflags=(-g -O1 -fno-stack-protector -ffreestanding -fno-builtin)

# The clang target and ld64 platform of an architecture (no bash 4 features: macOS ships bash 3.2).
triple() { case $1 in arm64) echo arm64-apple-ios15.0 ;; x86_64) echo x86_64-apple-ios15.0-simulator ;; esac; }
platform() { case $1 in arm64) echo ios ;; x86_64) echo ios-simulator ;; esac; }

compile() { # triple source object [extra flags]
    local triple=$1 source=$2 object=$3
    shift 3
    "$CLANG" -target "$triple" "${cflags[@]}" ${1+"$@"} -c "$source" -o "$object"
}

link() { # arch platform output kind(exe|dylib) objects...
    local arch=$1 platform=$2 output=$3 kind=$4
    shift 4
    local flags=(-arch "$arch" -platform_version "$platform" 15.0 15.0 -o "$output")
    if [[ $kind == dylib ]]; then
        flags+=(-dylib -install_name @rpath/DemoKit.framework/DemoKit)
    else
        flags+=(-e _main)
    fi
    "$LD64" "${flags[@]}" "$@" "$fixture/libSystem.tbd"
}

build_app_binary() { # variant-dir [defines]
    local dir=$1
    shift
    mkdir -p "$dir"
    local slices=()
    local arch
    for arch in arm64 x86_64; do
        compile "$(triple $arch)" "$fixture/Demo/main.c" "$dir/main-$arch.o" ${1+"$@"}
        link $arch "$(platform $arch)" "$dir/Demo-$arch" exe "$dir/main-$arch.o" "$work/kit/DemoKit-$arch"
        slices+=("$dir/Demo-$arch")
    done
    "$LIPO" -create "${slices[@]}" -output "$dir/Demo"
}

# DemoKit.framework: fat arm64 + x86_64.
mkdir -p "$work/kit" "$work/widget"
for arch in arm64 x86_64; do
    compile "$(triple $arch)" "$fixture/DemoKit/DemoKit.c" "$work/kit/DemoKit-$arch.o"
    link $arch "$(platform $arch)" "$work/kit/DemoKit-$arch" dylib "$work/kit/DemoKit-$arch.o"
done
"$LIPO" -create "$work/kit/DemoKit-arm64" "$work/kit/DemoKit-x86_64" -output "$work/kit/DemoKit"

# DemoWidget.appex: thin arm64.
compile "$(triple arm64)" "$fixture/DemoWidget/widget.c" "$work/widget/widget.o"
link arm64 ios "$work/widget/DemoWidget" exe "$work/widget/widget.o"

# Demo: fat arm64 + x86_64.
build_app_binary "$work/app"

archive=$output_dir/Demo.xcarchive
rm -rf "$archive"
app=$archive/Products/Applications/Demo.app
mkdir -p "$app/Frameworks/DemoKit.framework" "$app/PlugIns/DemoWidget.appex" "$archive/dSYMs"
# Like Xcode, expand $(MARKETING_VERSION) and $(CURRENT_PROJECT_VERSION) in the Info.plists from the build
# settings; the demo project keeps them in Config/Version.xcconfig, inherited by every target.
setting() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\([^[:space:]/]*\).*/\1/p" "$fixture/Config/Version.xcconfig" | tail -1; }
marketing_version=$(setting MARKETING_VERSION)
project_version=$(setting CURRENT_PROJECT_VERSION)
process_plist() {
    sed -e "s/\$(MARKETING_VERSION)/$marketing_version/g" -e "s/\$(CURRENT_PROJECT_VERSION)/$project_version/g" "$1" > "$2"
}
process_plist "$fixture/Demo/Info.plist" "$app/Info.plist"
process_plist "$fixture/DemoKit/Info.plist" "$app/Frameworks/DemoKit.framework/Info.plist"
process_plist "$fixture/DemoWidget/Info.plist" "$app/PlugIns/DemoWidget.appex/Info.plist"
printf 'APPL????' > "$app/PkgInfo"

"$DSYMUTIL" "$work/app/Demo" -o "$archive/dSYMs/Demo.app.dSYM"
"$DSYMUTIL" "$work/kit/DemoKit" -o "$archive/dSYMs/DemoKit.framework.dSYM"
"$DSYMUTIL" "$work/widget/DemoWidget" -o "$archive/dSYMs/DemoWidget.appex.dSYM"

if [[ $mismatch == 1 ]]; then
    # Rebuilt after its dSYM: different code, different UUIDs, stale dSYM.
    build_app_binary "$work/rebuilt" -DDEMO_REBUILT=1
    cp "$work/rebuilt/Demo" "$app/Demo"
else
    cp "$work/app/Demo" "$app/Demo"
fi
cp "$work/kit/DemoKit" "$app/Frameworks/DemoKit.framework/DemoKit"
cp "$work/widget/DemoWidget" "$app/PlugIns/DemoWidget.appex/DemoWidget"

# GNU date reads an epoch with -d @N, BSD date with -r N (which GNU reads as a file): perl's gmtime is on both.
creation_date=$(perl -MPOSIX -e 'print strftime("%Y-%m-%dT%H:%M:%SZ", gmtime($ARGV[0]))' "${SOURCE_DATE_EPOCH:-$(date +%s)}")
cat > "$archive/Info.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>ApplicationProperties</key>
	<dict>
		<key>ApplicationPath</key>
		<string>Applications/Demo.app</string>
		<key>Architectures</key>
		<array>
			<string>arm64</string>
			<string>x86_64</string>
		</array>
		<key>CFBundleIdentifier</key>
		<string>com.example.demo</string>
		<key>CFBundleShortVersionString</key>
		<string>$marketing_version</string>
		<key>CFBundleVersion</key>
		<string>$project_version</string>
	</dict>
	<key>ArchiveVersion</key>
	<integer>2</integer>
	<key>CreationDate</key>
	<date>$creation_date</date>
	<key>Name</key>
	<string>Demo</string>
	<key>SchemeName</key>
	<string>Demo</string>
</dict>
</plist>
PLIST

echo "$archive"
