#!/usr/bin/env bash
# Regenerates the typed App Store Connect contract (Sources/ReleaseKit/AppStoreConnect/Generated/Types.swift) from
# the committed copy of Apple's OpenAPI subset (OpenAPI/AppStoreConnect/openapi.json) with swift-openapi-generator
# 1.14.3, the version Package.swift's swift-openapi-runtime pairs with. The generated code is committed: a build
# needs neither the generator nor this script (the build plugin would compile the generator and OpenAPIKit in every
# CI run). The generator is built from its package in a scratch folder, .build-openapi (ignored by git).
#
#   scripts/generate-appstore-contract.sh           # regenerate
#   scripts/generate-appstore-contract.sh --check   # fail when the committed code differs from a regeneration
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=1.14.3
scratch=$root/.build-openapi
input=$root/OpenAPI/AppStoreConnect
output=$root/Sources/ReleaseKit/AppStoreConnect/Generated

check=false
if [ "${1:-}" = "--check" ]; then check=true; fi

mkdir -p "$scratch"
if [ ! -d "$scratch/swift-openapi-generator-$version" ]; then
  git clone --quiet --depth 1 --branch "$version" https://github.com/apple/swift-openapi-generator \
    "$scratch/swift-openapi-generator-$version"
fi
swift build --package-path "$scratch/swift-openapi-generator-$version" --scratch-path "$scratch/build" \
  --product swift-openapi-generator >&2
generator=$scratch/build/debug/swift-openapi-generator

target=$output
if $check; then target=$scratch/check; rm -rf "$target"; fi
mkdir -p "$target"
"$generator" generate --config "$input/openapi-generator-config.yaml" --output-directory "$target" "$input/openapi.json" >&2
# The generator imports with the types' access level (`package import Foundation.URL`); the rest of ReleaseKit imports
# Foundation without one, and Swift refuses a module imported both ways ("ambiguous implicit access level"). Plain
# imports, as every other file of the target has them.
for file in "$target"/*.swift; do
  sed -e 's/^\(@_spi(Generated) \)*package import /\1import /' "$file" > "$file.tmp"
  mv "$file.tmp" "$file"
done
if $check; then
  diff -ru "$output" "$target"
  echo "The committed contract is what the generator makes."
fi
