import Foundation

/// The interactive version menu of `release bump`, independent of any terminal: input lines come from a
/// closure and text goes to another, so tests drive it directly.
///
/// ```
/// Select new version [current: 3.0.0 (4146)]:
/// 1. 4.0.0 (4321)  major
/// 2. 3.1.0 (4321)  minor
/// 3. 3.0.1 (4321)  patch
/// 4. 3.0.0 (4321)  build only
/// ?
/// ```
/// All four choices share one new build number; 4 keeps the marketing version. An empty answer takes the
/// default, patch (the line a terminal menu highlights first); anything but a listed number asks again; the end
/// of input (Ctrl-D, a closed pipe) returns `nil` so nothing changes.
package struct BumpPrompt: Sendable {
    /// One line of the menu.
    package struct Item: Sendable, Equatable {
        /// What the option does to the version.
        package var choice: VersionChoice
        /// The version this option writes.
        package var version: SemanticVersion

        /// What the line is, shown after it: `major`, `minor`, `patch` or `build only`.
        package var kind: String {
            switch choice {
            case .part(let part): return part.rawValue
            case .keep: return "build only"
            case .exact(let version): return version.description
            }
        }
    }

    /// The version the project is at.
    package let current: SemanticVersion
    /// The build number the project is at.
    package let currentBuild: String?
    /// The build number every choice gets (`nil` when the project has none).
    package let newBuild: String?
    /// The four choices: major, minor, patch, keep.
    package let options: [Item]
    /// The index of the choice taken by an empty answer (and highlighted first on a terminal): patch.
    package let defaultIndex = 2

    /// A menu for a project at `current` and `currentBuild` whose choices all get `newBuild`.
    package init(current: SemanticVersion, currentBuild: String?, newBuild: String?) {
        self.current = current
        self.currentBuild = currentBuild
        self.newBuild = newBuild
        self.options = [
            Item(choice: .part(.major), version: current.bumped(.major)),
            Item(choice: .part(.minor), version: current.bumped(.minor)),
            Item(choice: .part(.patch), version: current.bumped(.patch)),
            Item(choice: .keep, version: current),
        ]
    }

    /// The menu's first line: `Select new version [current: 3.0.0 (4146)]:`.
    package var title: String { "Select new version [current: \(label(current.description, currentBuild))]:" }

    /// The menu, ending with the `?` the answer is typed after (no newline).
    package var menu: String {
        var text = title + "\n"
        for (index, option) in options.enumerated() {
            text += line(for: option, number: index + 1) + "\n"
        }
        return text + "?"
    }

    /// Shows the menu and reads answers until one is valid.
    /// - Parameters:
    ///   - readLine: the next input line without its newline, or `nil` at the end of input.
    ///   - write: prints text as is.
    /// - Returns: the chosen option, or `nil` when input ended first.
    package func run(readLine: () -> String?, write: (String) -> Void) -> Item? {
        write(menu)
        while let line = readLine() {
            let answer = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if answer.isEmpty { return options[defaultIndex] }
            if let number = Int(answer), (1...options.count).contains(number) {
                return options[number - 1]
            }
            write("'\(answer)' is not a choice: type a number from 1 to \(options.count)\n?")
        }
        write("\n")
        return nil
    }

    /// One menu line without its newline: `3. 3.0.1 (4321)  patch`, the kinds aligned in a column.
    package func line(for option: Item, number: Int) -> String {
        let text = "\(number). \(label(option.version.description, newBuild))"
        let width = options.enumerated().map { "\($0.offset + 1). \(label($0.element.version.description, newBuild))".count }.max() ?? 0
        return text + String(repeating: " ", count: width - text.count + 2) + option.kind
    }

    private func label(_ version: String, _ build: String?) -> String {
        build.map { "\(version) (\($0))" } ?? version
    }
}
