/// The name GitHub gives an uploaded asset.
///
/// GitHub renames asset file names with special or non-alphanumeric characters and leading or trailing
/// periods (https://docs.github.com/en/rest/releases/assets#upload-a-release-asset). Observed behaviour,
/// which this reproduces: every character other than ASCII letters, digits, `.`, `-` and `_` becomes `.`;
/// a leading period gets the prefix `default`; trailing periods are dropped. Two local files whose names
/// collide after this would overwrite each other, so the publisher rejects them in preflight.
package enum GitHubAssetName {
    /// `name` as GitHub will store it.
    package static func normalized(_ name: String) -> String {
        var result = String(
            name.map { character -> Character in
                guard character.isASCII, let scalar = character.unicodeScalars.first else { return "." }
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_": return character
                default: return "."
                }
            })
        while result.hasSuffix(".") { result.removeLast() }
        if result.hasPrefix(".") { result = "default" + result }
        return result.isEmpty ? "default" : result
    }
}
