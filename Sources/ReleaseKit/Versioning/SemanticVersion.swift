import Foundation

/// A marketing version as iOS projects write it: `3`, `3.0`, `3.0.0`, or with a prerelease suffix such as
/// `7.1.3b5` or `2.0.0-beta.1`.
///
/// Components compare numerically (`3.10.0` > `3.9.0`); a missing component counts as zero (`3.0` == `3.0.0`);
/// a version with a prerelease suffix sorts before the same version without one (`7.1.3b5` < `7.1.3`).
/// ``description`` keeps the number of components the version was written with, so a project that says `3.0`
/// keeps saying `X.Y` after a minor bump, and keeps zero-padded components padded, so a calendar version
/// `26.07.5` stays `26.07.5` (and bumps to `26.07.6` or `26.08.0`), never `26.7.5`.
package struct SemanticVersion: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The numeric components, at least one.
    package let components: [Int]
    /// The suffix after the numbers (`b5`, `-beta.1`), without changes; `nil` for a release version.
    package let prerelease: String?
    /// For each component written with leading zeros (`07`), its width; 0 for the others.
    let widths: [Int]

    /// Which part of a version a bump increments.
    package enum Part: String, Sendable, CaseIterable, Codable {
        case major, minor, patch
    }

    /// Creates a version from components (at least one) and an optional suffix.
    package init(components: [Int], prerelease: String? = nil) {
        self.init(components: components, prerelease: prerelease, widths: [])
    }

    init(components: [Int], prerelease: String?, widths: [Int]) {
        self.components = components.isEmpty ? [0] : components
        self.prerelease = prerelease
        self.widths = widths
    }

    /// Parses `X`, `X.Y`, `X.Y.Z` (up to four components) followed by an optional suffix that starts with a
    /// letter or `-` (`7.1.3b5`, `1.0.0-rc.1`). Returns `nil` for anything else.
    package init?(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var components: [Int] = []
        var widths: [Int] = []
        while true {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start, index - start <= 9,
                let value = Int(String(String.UnicodeScalarView(scalars[start..<index])))
            else { return nil }
            components.append(value)
            widths.append(index - start > 1 && scalars[start] == "0" ? index - start : 0)
            if index < scalars.count, scalars[index] == ".", index + 1 < scalars.count,
                ("0"..."9").contains(scalars[index + 1])
            {
                index += 1
                continue
            }
            break
        }
        guard components.count <= 4 else { return nil }
        var suffix: String?
        if index < scalars.count {
            let rest = String(String.UnicodeScalarView(scalars[index...]))
            guard let first = rest.unicodeScalars.first,
                first == "-" || first.properties.isAlphabetic,
                rest.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-") }),
                rest.count > (first == "-" ? 1 : 0)
            else { return nil }
            suffix = rest
        }
        self.init(components: components, prerelease: suffix, widths: widths)
    }

    /// Parses `text` or throws ``VersioningError/invalidVersion(_:context:)`` naming `context` (`file:line`).
    package static func parse(_ text: String, context: String? = nil) throws -> SemanticVersion {
        guard let version = SemanticVersion(text.trimmingCharacters(in: .whitespaces)) else {
            throw VersioningError.invalidVersion(text, context: context)
        }
        return version
    }

    /// The first component.
    package var major: Int { component(0) }
    /// The second component (zero when absent).
    package var minor: Int { component(1) }
    /// The third component (zero when absent).
    package var patch: Int { component(2) }

    /// The component at `index`, zero when the version was written with fewer.
    package func component(_ index: Int) -> Int {
        index < components.count ? components[index] : 0
    }

    /// The next version for `part`.
    ///
    /// - `major`: `3.2.1` → `4.0.0`, `3.2` → `4.0`, `3` → `4`.
    /// - `minor`: `3.2.1` → `3.3.0`, `3` → `3.1`.
    /// - `patch`: `3.2.1` → `3.2.2`, `3.2` → `3.2.1`.
    ///
    /// A prerelease is the run-up to its release, so bumping the patch of `7.1.3b5` gives `7.1.3` (the release it
    /// was a beta of), as `npm version patch` and App Store Connect's "same version, final build" both expect.
    /// Minor and major bumps of a prerelease increment as usual (`7.1.3b5` → `7.2.0`) and drop the suffix.
    package func bumped(_ part: Part) -> SemanticVersion {
        if part == .patch, prerelease != nil {
            return release
        }
        let position: Int
        switch part {
        case .major: position = 0
        case .minor: position = 1
        case .patch: position = 2
        }
        var next = components
        while next.count <= position { next.append(0) }
        next[position] += 1
        for index in (position + 1)..<next.count { next[index] = 0 }
        return SemanticVersion(components: next, prerelease: nil, widths: widths)
    }

    /// The version without its prerelease suffix.
    package var release: SemanticVersion { SemanticVersion(components: components, prerelease: nil, widths: widths) }

    /// The version as written: the same number of components, zero padding and the suffix.
    package var description: String {
        components.enumerated().map { index, component in
            let text = String(component)
            let width = index < widths.count ? widths[index] : 0
            return text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        }.joined(separator: ".") + (prerelease ?? "")
    }

    package static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        compare(lhs, rhs) == 0
    }

    package func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
        hasher.combine(prerelease)
    }

    package static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Whether the two are written identically (`3.0` and `3.0.0` are equal but not identical).
    package func isIdentical(to other: SemanticVersion) -> Bool {
        description == other.description
    }

    private static func compare(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Int {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = lhs.component(index), right = rhs.component(index)
            if left != right { return left < right ? -1 : 1 }
        }
        switch (lhs.prerelease, rhs.prerelease) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let left?, let right?): return comparePrerelease(left, right)
        }
    }

    /// Compares suffixes piece by piece: runs of digits numerically (`b10` > `b9`), letters alphabetically.
    private static func comparePrerelease(_ lhs: String, _ rhs: String) -> Int {
        let left = pieces(lhs), right = pieces(rhs)
        for index in 0..<max(left.count, right.count) {
            guard index < left.count else { return -1 }
            guard index < right.count else { return 1 }
            switch (Int(left[index]), Int(right[index])) {
            case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
            case (.some, nil): return -1
            case (nil, .some): return 1
            case (nil, nil): if left[index] != right[index] { return left[index] < right[index] ? -1 : 1 }
            }
        }
        return 0
    }

    private static func pieces(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var currentIsDigit = false
        for character in text {
            if character == "." || character == "-" {
                if !current.isEmpty { result.append(current) }
                current = ""
                continue
            }
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty, isDigit != currentIsDigit {
                result.append(current)
                current = ""
            }
            currentIsDigit = isDigit
            current.append(character)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = SemanticVersion(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid version '\(text)'")
        }
        self = version
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
