import ReleaseGitHub

/// `github.release`'s `replace` option: `release steps` lists the policies and decoding rejects others.
extension AssetReplacePolicy: OptionChoice {
    package static func invalidValueMessage(_ text: String) -> String {
        "'\(text)' is not \"fail\", \"replace\" or \"skip\""
    }
}
