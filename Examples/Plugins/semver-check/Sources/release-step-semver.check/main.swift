// A step plugin (protocol 1) in Swift: `semver.check` is a read-only gate that a version is X.Y.Z, so it really
// runs in dry runs too. Build: `swift build -c release`, then point a pipeline's `plugins` at
// `.build/release/release-step-semver.check`.
import Foundation

let description: [String: Any] = [
    "protocol": 1,
    "kind": "semver.check",
    "summary": "Check that a version is a semantic version X.Y.Z",
    "options": [
        "type": "object",
        "properties": [
            "version": ["type": "string", "description": "the version to check"],
            "allow_prerelease": ["type": "boolean", "default": false, "description": "accept X.Y.Z-suffix"],
        ],
        "required": ["version"],
        "additionalProperties": false,
    ] as [String: Any],
    "outputs": ["major": ["type": "number", "description": "the major version"]],
    "read_only": true,
]

/// Prints one protocol line.
func emit(_ fields: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

let verb = CommandLine.arguments.dropFirst().first ?? ""
if verb == "describe" {
    emit(description)
    exit(0)
}
guard ["verify", "plan", "run"].contains(verb),
    let request = try JSONSerialization.jsonObject(with: FileHandle.standardInput.readDataToEndOfFile()) as? [String: Any],
    let options = request["options"] as? [String: Any], let version = options["version"] as? String
else {
    FileHandle.standardError.write(Data("usage: release-step-semver.check describe|verify|plan|run (request on stdin)\n".utf8))
    exit(64)
}
let allowPrerelease = options["allow_prerelease"] as? Bool ?? false
var core = version
if allowPrerelease, let dash = version.firstIndex(of: "-") { core = String(version[..<dash]) }
let parts = core.split(separator: ".", omittingEmptySubsequences: false)
guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
    emit(["type": "result", "ok": false, "message": "'\(version)' is not a semantic version X.Y.Z"])
    exit(0)
}
if verb == "run" {
    emit(["type": "log", "message": "\(version) is a semantic version"])
    emit(["type": "output", "name": "major", "value": Int(parts[0])!])
}
emit(["type": "result", "ok": true])
