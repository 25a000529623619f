import ReleaseApple

/// `xcode.export`'s `method` option: both Xcode's old and new names are accepted; `release steps` lists them.
extension ExportMethod: OptionChoice {
    package static func invalidValueMessage(_ text: String) -> String {
        "'\(text)' is not an export method (" + allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")"
    }
}
