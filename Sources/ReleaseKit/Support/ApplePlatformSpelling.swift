/// One tool's words for the Apple platforms (``ApplePlatform``): a caseless type, so that an option can be typed
/// by the platform *and* the words it accepts (`ApplePlatformChoice<ApplePlatform.TransporterSpelling>`).
///
/// Implementation requirements: ``word(for:)`` answers for every platform, ``platforms`` lists each word once, in
/// the order the tool's documentation and our messages list them (`'x' is not one of ios, osx, appletvos, xros`).
package protocol ApplePlatformSpelling: Sendable {
    /// The platforms that have a word of their own, in the tool's order. A platform left out is spelled as one of
    /// these (``word(for:)``) and reads back as it.
    static var platforms: [ApplePlatform] { get }
    /// The tool's word for `platform`.
    static func word(for platform: ApplePlatform) -> String
}

extension ApplePlatformSpelling {
    /// Every word, in the tool's order.
    package static var words: [String] { platforms.map(word(for:)) }

    /// The words as help text lists them: `ios, tvos or macos`.
    package static var wordList: String {
        let all = Self.words
        return all.count < 2 ? all.joined() : all.dropLast().joined(separator: ", ") + " or " + all[all.count - 1]
    }
}
