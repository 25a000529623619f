import Foundation

extension ProjectVersions {
    /// The read's warnings as people read them, one line per cause: `release version`, `release bump`, `release init`
    /// and `version.bump` in a run all print these.
    ///
    /// A file under one of the `generated` folders (absolute: what the pipeline's own project generation writes before
    /// the build, CocoaPods' `Pods/`) is left out: the run makes it. Without that knowledge, the files under a `Pods/`
    /// folder (the base configurations `pod install` writes, git-ignored) are one line that counts them, not a line each.
    /// Every other line stays (a line already counts the targets a file affects).
    package func warnings(generated: [String] = []) -> [String] {
        var lines: [String] = []
        var pods: [String] = []
        for warning in report.warnings ?? [] {
            guard let file = missingFiles[warning] else {
                lines.append(warning)
                continue
            }
            if generated.contains(where: { file == $0 || file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) { continue }
            if file.contains("/Pods/") || file.hasPrefix("Pods/") {
                pods.append(file)
                continue
            }
            lines.append(warning)
        }
        if let first = pods.first {
            let folder = displayPath(String(first[..<first.range(of: "Pods/")!.upperBound]))
            lines.append(
                pods.count == 1
                    ? "'\(displayPath(first))' does not exist: 'pod install' writes it; what it sets is not read until then"
                    : "\(pods.count) files under \(folder) do not exist ('\(displayPath(first))' and \(pods.count - 1) more): 'pod install' writes them; what they set is not read until then"
            )
        }
        return lines
    }
}
