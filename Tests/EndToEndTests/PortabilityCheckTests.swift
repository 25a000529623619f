import Foundation
import ReleaseTestSupport
import Testing

/// scripts/check-portability.sh catches each spelling that works on only one of Linux and macOS, planted in a
/// script, a test and a source file, and passes the repository as it is.
@Suite struct PortabilityCheckTests {
    static let script = ReleaseBinary.root.appendingPathComponent("scripts/check-portability.sh").path

    /// Runs the check on `files` (or on the repository); its exit status and output.
    static func check(_ files: [String] = []) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = files
        process.currentDirectoryURL = ReleaseBinary.root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Command lines one system lacks: each is refused in a shell script and inside a Swift string, whether the
    /// Swift file is a test's or a source's.
    static let commands = [
        "stat -c %s file", "date -u -d @0 +%Y", "sed -i 's/a/b/' file", "sed -n -i 's/a/b/' file", "readlink -f link",
        "base64 -w 0 file", "find . -type f -printf '%s'", "cat /proc/self/status", "ldd release", "make -j$(nproc)",
        "/usr/bin/time -v release", "time -f %M release", "curl http://127.0.0.2:8080/", "sha256sum -c SHA256SUMS",
        "cd dist && md5sum release", "digest=$(sha256sum file)", "curl -fsS URL | sha256sum", "timeout 5 release run",
        "tar --transform 's/^/x/' -cf a.tar dir", "tar -C stage --sort=name --mtime=@0 -cf - dir",
    ]
    /// Shell that bash 3.2 (macOS's /bin/bash) cannot run.
    static let bash4 = [
        "declare -A sizes", "local -n target=$1", "mapfile -t lines < file", "readarray lines", "echo ${name,,}",
        "echo ${name^^}", "echo ${name@Q}", "wait -n", "make &>> log", "make |& tee log", "echo $EPOCHSECONDS",
    ]
    /// Swift that differs per system, or that spells a Mac's folders two ways.
    static let swift = [
        "import Glibc", "let path = url.standardizedFileURL.path", "let here = FileManager.default.currentDirectoryPath",
        "let real = (path as NSString).resolvingSymlinksInPath", "_ = st.st_mtim",
    ]
    /// What ports: none of these is refused.
    static let portable = [
        "sed -i.bak 's/a/b/' file", "date -u +%s", "getconf _NPROCESSORS_ONLN", "wc -c < file", "base64 | tr -d '\\n'",
        "otool -L release", "curl http://127.0.0.1:8080/", "cd \"$(dirname \"$0\")\" && pwd -P", "stat -f %z file",
        "ldd release  # portability: linux-only (the Linux branch)", "# nproc in a comment", "shasum -a 256 file",
        "if command -v sha256sum >/dev/null; then sha256sum file; else shasum -a 256 file; fi", "tar -C dir -czf a.tgz x",
        "echo 'SHA256SUMS (sha256sum format)'", "timeout-minutes: 5", "run(timeout=5)",
    ]

    func folder() throws -> String {
        let folder = TestTemporary.root + "/release-portability-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/Tests", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/Sources/ReleaseKit/Support", withIntermediateDirectories: true)
        return folder
    }

    func swiftLine(_ command: String) -> String {
        "let command = \"" + command.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"\n"
    }

    @Test func eachPatternIsCaughtInAScriptATestAndASource() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (index, command) in Self.commands.enumerated() {
            let script = "\(folder)/plant-\(index).sh", test = "\(folder)/Tests/Plant\(index)Tests.swift"
            let source = "\(folder)/Sources/ReleaseKit/Support/Plant\(index).swift"
            try "#!/usr/bin/env bash\nset -euo pipefail\n\(command)\n".write(toFile: script, atomically: true, encoding: .utf8)
            try swiftLine(command).write(toFile: test, atomically: true, encoding: .utf8)
            try swiftLine(command).write(toFile: source, atomically: true, encoding: .utf8)
            for file in [script, test, source] {
                let outcome = try Self.check([file])
                #expect(outcome.status == 1, "not caught in \(file): \(command)\n\(outcome.output)")
                #expect(outcome.output.contains(file + ":"), "\(outcome.output)")
            }
        }
        for (index, line) in Self.bash4.enumerated() {
            let script = "\(folder)/bash4-\(index).sh"
            try "#!/usr/bin/env bash\n\(line)\n".write(toFile: script, atomically: true, encoding: .utf8)
            let outcome = try Self.check([script])
            #expect(outcome.status == 1, "bash 4 not caught: \(line)\n\(outcome.output)")
        }
        for (index, line) in Self.swift.enumerated() {
            let source = "\(folder)/Sources/ReleaseKit/Support/Swift\(index).swift"
            try (line + "\n").write(toFile: source, atomically: true, encoding: .utf8)
            #expect(try Self.check([source]).status == 1, "not caught: \(line)")
            // The seam is where such spellings belong.
            let seam = "\(folder)/Sources/ReleaseKit/Support/PlatformPlant\(index).swift"
            try (line + "\n").write(toFile: seam, atomically: true, encoding: .utf8)
            #expect(try Self.check([seam]).status == 0, "refused in the seam: \(line)")
        }
    }

    @Test func portableSpellingsPass() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/portable.sh"
        try ("#!/usr/bin/env bash\n" + Self.portable.joined(separator: "\n") + "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let outcome = try Self.check([script])
        #expect(outcome.status == 0, "\(outcome.output)")
        // A whole script may declare itself Linux-only at its top (the benchmarks).
        let bench = folder + "/bench.sh"
        try "#!/usr/bin/env bash\n# portability: linux-only (GNU time)\n/usr/bin/time -v true\n".write(toFile: bench, atomically: true, encoding: .utf8)
        #expect(try Self.check([bench]).status == 0)
    }

    @Test func theRepositoryPasses() throws {
        let outcome = try Self.check()
        #expect(outcome.status == 0, "\(outcome.output)")
    }
}
