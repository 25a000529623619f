/// How the jobs of an exported pipeline put `release` on the PATH, from its ``ToolSource``: one script for every
/// engine (run on the engine's ``ScriptHost``), the values it reads from the environment, the folder an engine may
/// cache between runs, and what the header says.
package struct ToolInstall: Sendable, Equatable {
    package let source: ToolSource

    package init(_ source: ToolSource) { self.source = source }

    /// What the step that installs it is called.
    package var title: String {
        switch source {
        case .download(_, let version, _): "Install release \(version)"
        case .homebrew(let tap, _): "Install release from the Homebrew tap \(tap)"
        case .mint(_, let version): "Install release \(version) with Mint"
        case .swiftpm(_, let tag): "Build release \(tag) with SwiftPM"
        }
    }

    /// The values the script reads from the environment (never pasted into it: they come from the command line or
    /// the pipeline), by name.
    package var environment: [(name: String, value: String)] {
        switch source {
        case .download(let url, _, _): [("RELEASE_TOOL_URL", url)]
        case .swiftpm(let repository, _): [("RELEASE_TOOL_REPOSITORY", repository)]
        case .homebrew, .mint: []
        }
    }

    /// The folder a build lives in, for an engine that caches it between runs: what the cache is called, the folder,
    /// and the key (per source and version; an engine adds the runner's system and architecture). Nil for downloads and
    /// Homebrew, which have nothing to keep.
    package var cache: (title: String, path: String, key: String)? {
        switch source {
        case .mint(let package, let version):
            ("Cache Mint's builds", "~/.mint", "mint-\(package.replacingOccurrences(of: "/", with: "-"))-\(version)")
        case .swiftpm(_, let tag): ("Cache the build of release \(tag)", "~/.cache/release-tool/\(tag)", "release-tool-\(tag)")
        case .download, .homebrew: nil
        }
    }

    /// What the header says about installing `release`.
    package var summary: String {
        switch source {
        case .download(let url, let version, _):
            return "`release` \(version) is the packaged tarball for the runner's platform, downloaded from \(url) and checked against the SHA-256 pinned below before it runs."
        case .homebrew(let tap, let formula):
            return "`release` is installed with Homebrew from the tap \(tap) (formula \(formula)), which pins its version."
        case .mint(let package, let version):
            return "`release` \(version) is built and installed by Mint from \(package) (~/.mint cached between runs)."
        case .swiftpm(let repository, let tag):
            return "`release` is built with SwiftPM from tag \(tag) of \(repository), cached per tag and runner."
        }
    }

    /// The script that puts `release` on the PATH, on `host`: a download checked against its pinned SHA-256 for the
    /// runner's platform, a Homebrew or Mint install, or a SwiftPM build cached per tag.
    package func script(on host: ScriptHost) -> [String] {
        switch source {
        case .download(_, let version, let sha256):
            let patterns = ["darwin-universal": "Darwin-*", "linux-x86_64": "Linux-x86_64", "linux-arm64": "Linux-aarch64 | Linux-arm64"]
            var lines = [host.strictMode, "case \"$(uname -s)-$(uname -m)\" in"]
            for platform in ToolSource.platforms {
                guard let digest = sha256[platform] else { continue }
                lines.append("  \(patterns[platform]!)) platform=\(platform) sha256=\(digest) ;;")
            }
            lines += ["  *) \(host.error("release \(version) has no pinned tarball for $(uname -s)-$(uname -m)")); exit 1 ;;", "esac"]
            lines +=
                host.bash
                ? ["url=\"${RELEASE_TOOL_URL//\\{version\\}/\(version)}\"", "url=\"${url//\\{platform\\}/$platform}\""]
                : ["url=\"$(printf '%s\\n' \"$RELEASE_TOOL_URL\" | sed -e 's/{version}/\(version)/g' -e \"s/{platform}/$platform/g\")\""]
            lines += [
                "dir=\"\(host.scratch)/release-\(version)-$platform\"",
                "mkdir -p \"$dir\"",
                "curl -fsSL --retry 3 -o \"$dir/release.tar.gz\" \"$url\"",
                "if command -v sha256sum >/dev/null; then actual=\"$(sha256sum \"$dir/release.tar.gz\")\"; else actual=\"$(shasum -a 256 \"$dir/release.tar.gz\")\"; fi",
            ]
            lines += host.stop("[ \"${actual%% *}\" != \"$sha256\" ]", "$url has SHA-256 ${actual%% *}, not the pinned $sha256")
            lines += [
                "tar -xzf \"$dir/release.tar.gz\" -C \"$dir\"",
                "bin=\"$(dirname \"$(find \"$dir\" -mindepth 2 -maxdepth 2 -type f -name release | head -1)\")\"",
                "\"$bin/release\" --version",
                host.addToPath("$bin"),
            ]
            return lines
        case .homebrew(let tap, let formula):
            var lines = [host.strictMode]
            if let folder = host.homebrewFolder {
                lines.append("if ! command -v brew >/dev/null; then \(host.addToPath(folder)); export PATH=\"\(folder):$PATH\"; fi")
            }
            return lines + ["brew tap \(tap)", "brew install \(tap)/\(formula)", "release --version"]
        case .mint(let package, let version):
            return [host.strictMode, "command -v mint >/dev/null || brew install mint", "mint install \(package)@\(version)", host.addToPath("$HOME/.mint/bin")]
        case .swiftpm(_, let tag):
            return [
                host.strictMode,
                "dir=\"$HOME/.cache/release-tool/\(tag)\"",
                "if [ ! -x \"$dir/bin/release\" ]; then",
                "  rm -rf \"$dir\" && mkdir -p \"$dir/bin\"",
                "  git clone --quiet --depth 1 --branch \(tag) \"$RELEASE_TOOL_REPOSITORY\" \"$dir/source\"",
                "  swift build --package-path \"$dir/source\" -c release --product release",
                "  cp \"$(swift build --package-path \"$dir/source\" -c release --show-bin-path)/release\" \"$dir/bin/release\"",
                "  rm -rf \"$dir/source\"",
                "fi",
            ] + (host.checksBuild ? ["\"$dir/bin/release\" --version"] : []) + [host.addToPath("$dir/bin")]
        }
    }
}
