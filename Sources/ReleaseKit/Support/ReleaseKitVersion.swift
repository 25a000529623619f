internal import CReleaseStamp

/// The tool's own version, printed by `release --version`.
package enum ReleaseKitVersion {
    package static let string = "0.1.0"

    /// The GitHub repository (OWNER/NAME) whose Releases carry this build's packaged binaries (`Pipelines/self.json`
    /// publishes there): what an exported workflow installs by default. `scripts/package.sh` stamps it into the binary
    /// it packages, from the origin remote of the checkout it packages or `RELEASE_REPOSITORY`; a build from source
    /// has none (nil), and `release export` then asks for `--tool-source` or a `tool` block.
    package static let repository: String? = {
        let stamped = String(cString: release_stamped_repository())
        return isRepositoryName(stamped) ? stamped : nil
    }()

    /// Whether `text` is OWNER/NAME in GitHub's characters.
    static func isRepositoryName(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty && part.first != "-"
                    && part.unicodeScalars.allSatisfy {
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
                    }
            }
    }
}
