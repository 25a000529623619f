import Foundation

/// Turns xcodebuild's output into the few lines worth reading live, as xcbeautify does: what is compiled, linked
/// and signed, warnings and errors, the final verdict. The full output is kept elsewhere (the step's raw log).
package struct XcodebuildLogCondenser: Sendable {
    /// What one output line becomes.
    package enum Line: Sendable, Equatable {
        /// A build step or verdict, condensed: `[Demo] Compiling AppDelegate.swift`.
        case step(String)
        /// A warning or error.
        case issue(XcodebuildIssue)
    }

    /// Inside "The following build commands failed:" (its indented lines are shown as they are).
    private var inFailureList = false

    package init() {}

    /// The condensed form of `line`, or nil to hide it.
    package mutating func condense(_ line: String) -> Line? {
        if inFailureList {
            if line.hasPrefix("\t") || line.hasPrefix(" ") { return .step(line.trimmingCharacters(in: .whitespaces)) }
            inFailureList = false
        }
        if line == "The following build commands failed:" {
            inFailureList = true
            return .step(line)
        }
        if line.hasPrefix("** ") && line.hasSuffix(" **") { return .step(line) }
        if let issue = XcodebuildIssue(line: line) { return .issue(issue) }
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let command = words.first else { return nil }
        let target = Self.target(in: line).map { "[\($0)] " } ?? ""
        let paths = words.dropFirst().filter { $0.hasPrefix("/") }
        func name(_ path: String?) -> String { path.map { String($0.split(separator: "/").last ?? "") } ?? "" }
        switch command {
        case "CompileSwift", "CompileC":
            // CompileSwift normal arm64 /src/File.swift …; CompileC /obj/file.o /src/file.c normal arm64 c …
            let source = command == "CompileC" ? (paths.count > 1 ? paths[1] : paths.first) : paths.first
            return source.map { .step("\(target)Compiling \(name($0))") }
        case "SwiftCompile":
            return paths.last.map { .step("\(target)Compiling \(name($0))") }
        case "Ld":
            return paths.first.map { .step("\(target)Linking \(name($0))") }
        case "CodeSign":
            return paths.first.map { .step("\(target)Signing \(name($0))") }
        case "GenerateDSYMFile":
            return paths.first.map { .step("\(target)Generating \(name($0))") }
        case "ProcessProductPackaging", "ProcessInfoPlistFile", "CopySwiftLibs", "Touch", "CreateUniversalBinary":
            return nil
        default:
            return nil
        }
    }

    /// `Demo` in `… (in target 'Demo' from project 'Demo')`.
    static func target(in line: String) -> String? {
        guard let range = line.range(of: "(in target '") else { return nil }
        let rest = line[range.upperBound...]
        return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }
}
