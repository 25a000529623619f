import Foundation
import Rehearsal
import ReleaseAppStoreConnect
import ReleaseSupport
import ReleaseTestSupport
import Testing

/// `release bump` and `release version` run as the built binary (`swift build` first) against a fixture copied
/// into a temporary git repository: through a pseudo-terminal, and without one.
@Suite(.serialized) struct BumpCommandTests {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let binary = packageRoot + "/.build/debug/release"

    /// A temporary git repository holding a copy of a fixture (`Fixtures/Xcode/literal-plist` unless told).
    struct Repository {
        let path: String
        let fixture: String
        var plist: String { path + "/Classic/Info.plist" }

        init(fixture name: String = "literal-plist") throws {
            path = TestTemporary.root + "/release-e2e-\(UUID().uuidString)"
            fixture = BumpCommandTests.packageRoot + "/Fixtures/Xcode/" + name
            try FileManager.default.copyItem(atPath: fixture, toPath: path)
            try FileManager.default.removeItem(atPath: path + "/expected")
            for arguments in [
                ["init", "-q", "-b", "main"], ["config", "user.name", "Release Test"], ["config", "user.email", "release@example.com"],
                ["config", "commit.gpgsign", "false"], ["add", "-A"], ["commit", "-q", "-m", "Initial commit"],
            ] {
                let result = try BumpCommandTests.execute(["/usr/bin/env", "git"] + arguments, in: path)
                guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["git": arguments, "stderr": result.stderr]) }
            }
        }

        func git(_ arguments: String...) throws -> String {
            try BumpCommandTests.execute(["/usr/bin/env", "git"] + arguments, in: path).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    struct Execution {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` with standard input from /dev/null (no terminal).
    static func execute(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Execution {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Execution(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The menu's first screen: patch highlighted, the cursor after `?3`.
    static let menuPrompt = "?3"
    /// The confirmation after the preview.
    static let confirmation = "[Y/n]?"

    /// Runs the binary in a pseudo-terminal (python3's `pty`: no tmux, and no controlling terminal needed), typing
    /// each answer once the output written since the previous answer contains its `after` text.
    static func executeInTerminal(
        _ arguments: [String], in directory: String,
        answers: [(after: String, send: String)],
        environment: [String: String] = ["NO_COLOR": ""]
    ) throws -> (status: Int32, output: String) {
        let script = """
            import json, os, pty, select, signal, sys, termios, time
            answers = json.loads(sys.argv[1])
            pending = b""
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            out = b""
            deadline = time.time() + 120
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if fd in ready:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        break
                    if not data:
                        break
                    out += data
                    pending += data
                    if answers and answers[0][0].encode() in pending:
                        answer = answers.pop(0)[1]
                        pending = b""
                        if answer == "<SIGTERM>":
                            os.kill(pid, signal.SIGTERM)
                        else:
                            os.write(fd, answer.encode())
            else:
                os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            # The terminal as the command left it: canonical mode and echo must be back on.
            lflag = termios.tcgetattr(fd)[3]
            restored = bool(lflag & termios.ICANON) and bool(lflag & termios.ECHO) and bool(lflag & termios.ISIG)
            sys.stdout.write(json.dumps({"status": code, "output": out.decode("utf-8", "replace"), "restored": restored}))
            """
        let answersJSON = String(decoding: try JSONSerialization.data(withJSONObject: answers.map { [$0.after, $0.send] }), as: UTF8.self)
        let result = try execute(["/usr/bin/env", "python3", "-c", script, answersJSON] + arguments, in: directory, environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let status = (object?["status"] as? Int).map(Int32.init) ?? -1
        let output = object?["output"] as? String ?? "python: \(result.stderr)"
        return (status, (object?["restored"] as? Bool) == false ? output + "\n[the terminal was left in raw mode]" : output)
    }

    private func requireBinary() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build first: swift build (looked for \(Self.binary))")
    }

    @Test func typingThreeAtThePromptBumpsThePatchBranchesAndCommits() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let (status, output) = try Self.executeInTerminal(
            [Self.binary, "bump", "--build", "4321"], in: repository.path,
            answers: [(Self.menuPrompt, "3\n"), (Self.confirmation, "\n")])
        #expect(status == 0, "output: \(output)")
        // The first screen: what each line is, patch highlighted (the terminal turns \n into \r\n).
        #expect(
            output.hasPrefix(
                """
                (↑/↓ or 1-4 to move, Enter to choose, q or Esc to cancel)\r
                Select new version [current: 3.0.0 (4146)]:\r
                  1. 4.0.0 (4321)  major\r
                  2. 3.1.0 (4321)  minor\r
                \u{1B}[7m> 3. 3.0.1 (4321)  patch\u{1B}[0m\r
                  4. 3.0.0 (4321)  build only\r
                ?3
                """), "output: \(output)")
        // The menu answer is not enough: a preview naming the branch, the commit and its message comes first.
        #expect(output.contains("  write Classic/Info.plist:"), "output: \(output)")
        #expect(output.contains("  create the branch 'release/3.0.1' and switch to it\r\n"), "output: \(output)")
        #expect(output.contains("  commit 1 file(s) with the message \"Bump version to 3.0.1 (4321)\"\r\n"), "output: \(output)")
        #expect(output.contains("Bump 3.0.0 (4146) -> 3.0.1 (4321) [Y/n]?"), "output: \(output)")
        #expect(output.contains("Created branch release/3.0.1"))

        let expected = try Data(contentsOf: URL(fileURLWithPath: repository.fixture + "/expected/after/Classic/Info.plist"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == expected)
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "release/3.0.1")
        #expect(try repository.git("log", "-1", "--format=%s") == "Bump version to 3.0.1 (4321)")
        #expect(try repository.git("show", "--name-only", "--format=", "HEAD") == "Classic/Info.plist")
        #expect(try repository.git("status", "--porcelain") == "")
        #expect(try repository.git("rev-list", "--count", "HEAD") == "2")
    }

    @Test func enterAloneTakesTheHighlightedPatch() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        // With NO_COLOR the `>` alone marks the highlighted line.
        let (status, output) = try Self.executeInTerminal(
            [Self.binary, "bump", "--build", "keep", "--no-branch"], in: repository.path,
            answers: [(Self.menuPrompt, "\r"), (Self.confirmation, "y\n")], environment: ["NO_COLOR": "1"])
        #expect(status == 0, "output: \(output)")
        #expect(output.contains("\r\n> 3. 3.0.1 (4146)  patch\r\n"), "output: \(output)")
        #expect(!output.contains("\u{1B}[7m"), "output: \(output)")
        #expect(output.contains("Bumped 3.0.0 (4146) -> 3.0.1 (4146)"), "output: \(output)")
        let plist = try String(contentsOfFile: repository.plist, encoding: .utf8)
        #expect(plist.contains("<key>CFBundleShortVersionString</key>\n\t<string>3.0.1</string>"))
    }

    @Test func aDigitMovesTheHighlightAndOnlyEnterTakesIt() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        // "1" moves the highlight to major; "q" then leaves: nothing was taken.
        let (cancelled, cancelledOutput) = try Self.executeInTerminal(
            [Self.binary, "bump"], in: repository.path,
            answers: [(Self.menuPrompt, "1"), ("?1", "q")])
        #expect(cancelled == 1, "output: \(cancelledOutput)")
        #expect(cancelledOutput.contains("\u{1B}[7m> 1. 4.0.0 (4147)  major\u{1B}[0m\r\n"), "output: \(cancelledOutput)")
        #expect(!cancelledOutput.contains("[Y/n]"), "output: \(cancelledOutput)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)

        // "1" then Enter: major.
        let (status, output) = try Self.executeInTerminal(
            [Self.binary, "bump", "--build", "keep", "--no-branch"], in: repository.path,
            answers: [(Self.menuPrompt, "1"), ("?1", "\r"), (Self.confirmation, "y\n")])
        #expect(status == 0, "output: \(output)")
        #expect(output.contains("Bumped 3.0.0 (4146) -> 4.0.0 (4146)"), "output: \(output)")
    }

    @Test(arguments: [("q", "q"), ("Esc", "\u{1B}")])
    func qAndEscCancelAndChangeNothing(name: String, key: String) throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let (status, output) = try Self.executeInTerminal([Self.binary, "bump"], in: repository.path, answers: [(Self.menuPrompt, key)])
        #expect(status == 1, "\(name): \(output)")
        // The options drawn again without a highlight, the cursor on a fresh line, then the message.
        #expect(
            output.hasSuffix("\r\u{1B}[2K  4. 3.0.0 (4147)  build only\r\n\r\u{1B}[2K?\u{1B}[0m\r\ncancelled: nothing changed\r\n"),
            "\(name): \(output)")
        #expect(!output.contains("[the terminal was left in raw mode]"), "\(name): \(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("branch", "--list", "release/*") == "")
    }

    @Test func endOfInputChangesNothing() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        // "9" names no line (the bell rings, nothing moves); then Ctrl-D ends the input.
        let (status, output) = try Self.executeInTerminal([Self.binary, "bump"], in: repository.path, answers: [(Self.menuPrompt, "9\u{04}")])
        #expect(status == 1, "output: \(output)")
        #expect(output.contains("?3\u{7}"), "output: \(output)")
        #expect(output.contains("cancelled: nothing changed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "main")
        #expect(try repository.git("branch", "--list", "release/*") == "")
    }

    @Test func arrowKeysChooseAndCtrlCChangesNothing() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let (interrupted, interruptedOutput) = try Self.executeInTerminal([Self.binary, "bump"], in: repository.path, answers: [(Self.menuPrompt, "\u{03}")])
        #expect(interrupted == 130, "output: \(interruptedOutput)")
        // Ctrl-C leaves the cursor on a fresh line, the message on its own, and the terminal as it was.
        #expect(interruptedOutput.hasSuffix("?\u{1B}[0m\r\ninterrupted: nothing changed\r\n"), "output: \(interruptedOutput)")
        #expect(!interruptedOutput.contains("[the terminal was left in raw mode]"), "output: \(interruptedOutput)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)

        // From patch: down (build only), down (wraps to major), up (build only), up (patch), up: minor.
        let (status, output) = try Self.executeInTerminal(
            [Self.binary, "bump", "--build", "keep", "--no-branch"], in: repository.path,
            answers: [(Self.menuPrompt, "\u{1B}[B\u{1B}[B\u{1B}[A\u{1B}[A\u{1B}[A"), ("?2", "\r"), (Self.confirmation, "y\n")]
        )
        #expect(status == 0, "output: \(output)")
        #expect(output.contains("\u{1B}[7m> 2. 3.1.0 (4146)  minor\u{1B}[0m"), "output: \(output)")
        let plist = try String(contentsOfFile: repository.plist, encoding: .utf8)
        #expect(plist.contains("<key>CFBundleShortVersionString</key>\n\t<string>3.1.0</string>"))
        #expect(plist.contains("<key>CFBundleVersion</key>\n\t<string>4146</string>"))
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "main")
    }

    /// `--build appstore`: the next build number App Store Connect has not seen for the project's app (any version),
    /// asked with the API key from the environment, here of a local stand-in.
    @Test func buildAppStoreTakesTheNextNumberAppStoreConnectHasNotSeen() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let pem = try Self.execute(["/usr/bin/env", "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], in: repository.path).stdout
        let issuer = "57246542-96fe-1a63-e053-0824d011072a"
        let key = try AppStoreConnectKey(id: "BUMP123456", issuer: issuer, pem: pem)
        let server = try LocalAppStoreConnectServer(
            configuration: .init(
                storageDirectory: TestTemporary.root + "/release-asc-\(UUID().uuidString)",
                keys: [.init(keyID: "BUMP123456", issuerID: issuer, publicKeyPEM: try key.publicKeyPEM)]))
        let url = try server.start()
        defer { server.stop() }
        server.addApp(bundleID: "com.example.classic", name: "Classic")
        server.addBuild(bundleID: "com.example.classic", version: "2.9.0", build: "4200")
        server.addBuild(bundleID: "com.example.classic", version: "3.0.0", build: "4146")
        server.addBuild(bundleID: "com.example.other", version: "9.0.0", build: "9999")  // another app's numbers do not count
        let environment = [
            "APP_STORE_CONNECT_API_URL": url, "APP_STORE_CONNECT_KEY_ID": "BUMP123456",
            "APP_STORE_CONNECT_ISSUER_ID": issuer, "APP_STORE_CONNECT_KEY": pem,
        ]
        let result = try Self.execute(
            [Self.binary, "bump", "patch", "--build", "appstore", "--no-branch", "--yes"], in: repository.path,
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("App Store Connect: com.example.classic has build 4200 as its latest (4146 in 3.0.0); next build 4201"), "\(result.stderr)")
        let plist = try String(contentsOfFile: repository.plist, encoding: .utf8)
        #expect(plist.contains("<key>CFBundleVersion</key>\n\t<string>4201</string>"))
        #expect(!result.stderr.contains("BEGIN PRIVATE KEY"))

        // Without the key nothing is asked and nothing changes.
        let missing = try Self.execute(
            [Self.binary, "bump", "patch", "--build", "appstore", "--no-branch", "--yes"], in: repository.path,
            environment: ["APP_STORE_CONNECT_KEY_ID": "", "APP_STORE_CONNECT_ISSUER_ID": "", "APP_STORE_CONNECT_KEY": ""])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "error: --build appstore reads the API key from the environment: set APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID, APP_STORE_CONNECT_KEY"),
            "\(missing.stderr)")
    }

    @Test func aSIGTERMInTheMenuRestoresTheTerminalAndChangesNothing() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let (status, output) = try Self.executeInTerminal([Self.binary, "bump"], in: repository.path, answers: [(Self.menuPrompt, "<SIGTERM>")])
        #expect(status == 130, "output: \(output)")
        #expect(output.contains("interrupted: nothing changed"))
        #expect(!output.contains("[the terminal was left in raw mode]"), "output: \(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
    }

    @Test func ctrlCAfterAnArrowLeavesNoHighlightAndTheMenuAnswerAloneWritesNothing() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let (interrupted, output) = try Self.executeInTerminal(
            [Self.binary, "bump"], in: repository.path,
            answers: [(Self.menuPrompt, "\u{1B}[B\u{03}")])
        #expect(interrupted == 130, "output: \(output)")
        let afterHighlight = try #require(output.components(separatedBy: "\u{1B}[7m").last)
        #expect(afterHighlight.contains("\u{1B}[2K  4. 3.0.0 (4147)  build only\r\n"), "the options are drawn again without the highlight: \(output)")
        #expect(afterHighlight.contains("\u{1B}[0m"))
        // Answering "n" to the preview after choosing in the menu changes nothing.
        let (declined, declinedOutput) = try Self.executeInTerminal([Self.binary, "bump"], in: repository.path, answers: [(Self.menuPrompt, "3\n"), (Self.confirmation, "n\n")])
        #expect(declined == 1, "output: \(declinedOutput)")
        #expect(declinedOutput.contains("cancelled: nothing changed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("branch", "--list", "release/*") == "")
    }

    @Test func withoutATerminalNothingIsWrittenWithoutYes() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let result = try Self.execute([Self.binary, "bump", "patch"], in: repository.path)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("pass --yes"), "stderr: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "main")
        #expect(try repository.git("branch", "--list", "release/*") == "")
        #expect(try repository.git("rev-list", "--count", "HEAD") == "1")
    }

    @Test func withoutATerminalAChoiceIsRequired() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let result = try Self.execute([Self.binary, "bump"], in: repository.path)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("error: no version chosen and no terminal to ask on: pass major, minor, patch, build or X.Y.Z"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("release bump patch --build increment --yes"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("branch", "--list", "release/*") == "")
    }

    @Test func withoutATerminalPatchYesBumpsAndPrintsJSON() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        // Something else already staged stays out of the bump commit.
        try "notes\n".write(toFile: repository.path + "/notes.txt", atomically: true, encoding: .utf8)
        _ = try repository.git("add", "notes.txt")
        let result = try Self.execute([Self.binary, "bump", "patch", "--yes", "--build", "4321", "--json"], in: repository.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["version"] as? String == "3.0.1")
        #expect(json["build"] as? String == "4321")
        #expect(json["previous_version"] as? String == "3.0.0")
        #expect(json["previous_build"] as? String == "4146")
        #expect(json["branch"] as? String == "release/3.0.1")
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["Classic/Info.plist"])
        let changes = try #require(files.first?["changes"] as? [[String: Any]])
        #expect(
            changes.map { "\($0["key"] ?? ""):\($0["line"] ?? ""):\($0["old"] ?? "")->\($0["new"] ?? "")" }
                == ["CFBundleShortVersionString:18:3.0.0->3.0.1", "CFBundleVersion:20:4146->4321"])
        let expected = try Data(contentsOf: URL(fileURLWithPath: repository.fixture + "/expected/after/Classic/Info.plist"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == expected)
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "release/3.0.1")
        #expect(try repository.git("show", "--name-only", "--format=", "HEAD") == "Classic/Info.plist")
        #expect(try repository.git("status", "--porcelain") == "A  notes.txt")

        // The same branch again is refused before anything is written.
        try repository.git("checkout", "-q", "main")
        let again = try Self.execute([Self.binary, "bump", "patch", "--build", "4321", "--yes"], in: repository.path)
        #expect(again.status == 1)
        #expect(again.stderr.contains("error: branch 'release/3.0.1' already exists"), "stderr: \(again.stderr)")
        #expect(try repository.git("status", "--porcelain") == "A  notes.txt")
    }

    @Test func pushSendsTheReleaseBranchToTheRemote() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let remote = TestTemporary.root + "/release-e2e-remote-\(UUID().uuidString).git"
        defer { try? FileManager.default.removeItem(atPath: remote) }
        #expect(try Self.execute(["/usr/bin/env", "git", "init", "-q", "--bare", remote], in: repository.path).status == 0)
        _ = try repository.git("remote", "add", "origin", remote)
        let result = try Self.execute(
            [
                Self.binary, "bump", "2.0", "--allow-downgrade", "--build", "keep", "--yes", "--push", "--branch-pattern", "rc/{version}-{build}",
                "--message",
                "Release {version} (was {previous_version})",
            ],
            in: repository.path
        )
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "rc/2.0-4146")
        #expect(try repository.git("log", "-1", "--format=%s") == "Release 2.0 (was 3.0.0)")
        let pushed = try Self.execute(["/usr/bin/env", "git", "rev-parse", "refs/heads/rc/2.0-4146"], in: remote)
        #expect(pushed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (try repository.git("rev-parse", "HEAD")))
        let plist = try String(contentsOfFile: repository.plist, encoding: .utf8)
        #expect(plist.contains("<key>CFBundleShortVersionString</key>\n\t<string>2.0</string>"))
        #expect(plist.contains("<key>CFBundleVersion</key>\n\t<string>4146</string>"))
    }

    /// A version below the project's is a typo far more often than a plan (and App Store Connect refuses it): refused,
    /// naming both versions, unless --allow-downgrade; in a dry run too.
    @Test(arguments: [["2.9.0"], ["--version", "2.9.0"], ["2.9.0", "--dry-run"]])
    func aDowngradeIsRefusedUnlessAllowed(choice: [String]) throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let refused = try Self.execute([Self.binary, "bump"] + choice + ["--build", "keep", "--yes"], in: repository.path)
        #expect(refused.status == 64, "stderr: \(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "error: the new version '2.9.0' is lower than the current '3.0.0': pass --allow-downgrade if that is what you mean (nothing was changed)"),
            "stderr: \(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("branch", "--list", "release/*") == "")
        let allowed = try Self.execute([Self.binary, "bump"] + choice + ["--build", "keep", "--yes", "--allow-downgrade"], in: repository.path)
        #expect(allowed.status == 0, "stderr: \(allowed.stderr)")
        #expect(allowed.stderr.contains("warning: the new version '2.9.0' is lower than the current '3.0.0' (--allow-downgrade)"), "stderr: \(allowed.stderr)")
        if !choice.contains("--dry-run") {
            #expect(try String(contentsOfFile: repository.plist, encoding: .utf8).contains("<string>2.9.0</string>"))
        }
    }

    /// `release bump build` on the release branch it would create commits there (a fix's new build of X.Y.Z), and
    /// pushes it with --push.
    @Test func buildOnTheReleaseBranchCommitsThereAndPushes() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let remote = TestTemporary.root + "/release-e2e-remote-\(UUID().uuidString).git"
        defer { try? FileManager.default.removeItem(atPath: remote) }
        #expect(try Self.execute(["/usr/bin/env", "git", "init", "-q", "--bare", remote], in: repository.path).status == 0)
        _ = try repository.git("remote", "add", "origin", remote)
        let cut = try Self.execute([Self.binary, "bump", "patch", "--build", "4321", "--yes"], in: repository.path)
        #expect(cut.status == 0, "stderr: \(cut.stderr)")
        let released = try repository.git("rev-parse", "HEAD")

        let dry = try Self.execute([Self.binary, "bump", "build", "--dry-run", "--push"], in: repository.path)
        #expect(dry.status == 0, "stderr: \(dry.stderr)")
        #expect(!dry.stderr.contains("git checkout -b"), "stderr: \(dry.stderr)")
        #expect(dry.stderr.contains("would run: git push -u origin release/3.0.1"), "stderr: \(dry.stderr)")

        let build = try Self.execute([Self.binary, "bump", "build", "--yes", "--push"], in: repository.path)
        #expect(build.status == 0, "stderr: \(build.stderr)")
        #expect(build.stderr.contains("On branch release/3.0.1 already: committed there"), "stderr: \(build.stderr)")
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "release/3.0.1")
        #expect(try repository.git("log", "-1", "--format=%s|%P") == "Bump version to 3.0.1 (4322)|\(released)")
        #expect(try repository.git("status", "--porcelain") == "")
        let pushed = try Self.execute(["/usr/bin/env", "git", "rev-parse", "refs/heads/release/3.0.1"], in: remote)
        #expect(pushed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == (try repository.git("rev-parse", "HEAD")))

        // Elsewhere the branch is still taken.
        _ = try repository.git("checkout", "-q", "main")
        let again = try Self.execute([Self.binary, "bump", "patch", "--build", "4321", "--yes"], in: repository.path)
        #expect(again.status == 1)
        #expect(
            again.stderr.contains("error: branch 'release/3.0.1' already exists (check it out to bump there, delete it, or pass --no-branch)"),
            "stderr: \(again.stderr)")
    }

    /// On a runner with no git identity the bump's commit is the CI actor's, and nothing is written to git's configuration.
    @Test func aBumpCommitsWithoutAnyGitIdentity() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        _ = try repository.git("config", "--unset", "user.name")
        _ = try repository.git("config", "--unset", "user.email")
        let config = try String(contentsOfFile: repository.path + "/.git/config", encoding: .utf8)
        let home = TestTemporary.root + "/release-e2e-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let runner = ["HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "CI": "true"]
        let plain = try Self.execute(["/usr/bin/env", "git", "commit", "--allow-empty", "-m", "plain"], in: repository.path, environment: runner)
        #expect(plain.status != 0, "git itself has no identity here")
        let result = try Self.execute(
            [Self.binary, "bump", "patch", "--build", "4321", "--yes"], in: repository.path,
            environment: runner.merging(["GITHUB_ACTOR": "octocat", "GITHUB_ACTOR_ID": "583231"]) { _, new in new })
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let author = try Self.execute(["/usr/bin/env", "git", "log", "-1", "--format=%an <%ae>|%cn <%ce>"], in: repository.path, environment: runner)
        #expect(
            author.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "octocat <583231+octocat@users.noreply.github.com>|octocat <583231+octocat@users.noreply.github.com>")
        #expect(try String(contentsOfFile: repository.path + "/.git/config", encoding: .utf8) == config)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home) == [])
    }

    @Test func versionFileWithoutBranch() throws {
        try requireBinary()
        let folder = TestTemporary.root + "/release-e2e-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "  VERSION = '7.1.3b5'\r\n".write(toFile: folder + "/version.rb", atomically: true, encoding: .utf8)
        let result = try Self.execute([Self.binary, "bump", "patch", "--file", "version.rb", "--no-branch", "--yes", "--json"], in: folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try String(contentsOfFile: folder + "/version.rb", encoding: .utf8) == "  VERSION = '7.1.3'\r\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["version"] as? String == "7.1.3")
        #expect(json["build"] == nil, "a version file without a build number gets none")
    }

    @Test func dryRunPrintsTheDiffAndWritesNothing() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let result = try Self.execute([Self.binary, "bump", "minor", "--build", "5000", "--dry-run"], in: repository.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        try Snapshot.expect(result.stdout, matches: "bump-dry-run-diff")
        #expect(result.stderr.contains("would run: git checkout -b release/3.1.0"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("branch", "--list", "release/*") == "")
    }

    /// The dry-run diff of a CRLF project applies with `git apply` and gives exactly the files a real bump writes.
    @Test func dryRunDiffAppliesToTheExpectedFiles() throws {
        try requireBinary()
        let repository = try Repository(fixture: "configurations-disagree")
        defer { repository.remove() }
        let result = try Self.execute([Self.binary, "bump", "patch", "--dry-run", "--no-branch"], in: repository.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let patch = repository.path + "/../\((repository.path as NSString).lastPathComponent).diff"
        try result.stdout.write(toFile: patch, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: patch) }
        let applied = try Self.execute(["/usr/bin/env", "git", "apply", patch], in: repository.path)
        #expect(applied.status == 0, "git apply: \(applied.stderr)")
        let relative = "Disagree.xcodeproj/project.pbxproj"
        let expected = try Data(contentsOf: URL(fileURLWithPath: repository.fixture + "/expected/after/" + relative))
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.path + "/" + relative)) == expected)
    }

    @Test func badCommandLinesExit64() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let version = try Self.execute([Self.binary, "bump", "huge", "--yes"], in: repository.path)
        #expect(version.status == 64)
        #expect(version.stderr.contains("invalid version 'huge'"), "stderr: \(version.stderr)")
        let build = try Self.execute([Self.binary, "bump", "patch", "--build", "soon"], in: repository.path)
        #expect(build.status == 64)
        #expect(build.stderr.contains("invalid build number 'soon'"), "stderr: \(build.stderr)")
        let target = try Self.execute([Self.binary, "bump", "patch", "--target", "Nope", "--yes", "--no-branch"], in: repository.path)
        #expect(target.status == 64)
        #expect(target.stderr == "error: no target 'Nope' in the project (targets: 'Classic')\n", "stderr: \(target.stderr)")
    }

    /// `release bump --version X.Y.Z` is `release bump X.Y.Z`: it bumps, branches and commits, and does not print the
    /// tool's version.
    @Test func versionOptionBumpsLikeThePositionalVersion() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let result = try Self.execute([Self.binary, "bump", "--version", "3.2.0", "--build", "4321", "--yes"], in: repository.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "", "stdout: \(result.stdout)")
        #expect(result.stderr.hasPrefix("Bumped 3.0.0 (4146) -> 3.2.0 (4321)\n"), "stderr: \(result.stderr)")
        let plist = try String(contentsOfFile: repository.plist, encoding: .utf8)
        #expect(plist.contains("<key>CFBundleShortVersionString</key>\n\t<string>3.2.0</string>"))
        #expect(plist.contains("<key>CFBundleVersion</key>\n\t<string>4321</string>"))
        #expect(try repository.git("rev-parse", "--abbrev-ref", "HEAD") == "release/3.2.0")
        #expect(try repository.git("log", "-1", "--format=%s") == "Bump version to 3.2.0 (4321)")

        // The same version twice (positional and --version, or --version=) is one choice.
        let other = try Repository()
        defer { other.remove() }
        let both = try Self.execute([Self.binary, "bump", "3.2.0", "--version=3.2.0", "--build", "keep", "--no-branch", "--yes"], in: other.path)
        #expect(both.status == 0, "stderr: \(both.stderr)")
        #expect(try String(contentsOfFile: other.plist, encoding: .utf8).contains("<string>3.2.0</string>"))
    }

    @Test(arguments: [
        (["bump", "--version"], "Missing value for '--version <X.Y.Z>'"),
        (["bump", "--version", "--yes"], "Missing value for '--version <X.Y.Z>'"),
        (["bump", "patch", "--version", "3.2.0", "--yes"], "error: 'patch' and '--version 3.2.0' choose different versions: pass one, as 'release bump X.Y.Z'"),
        (["bump", "3.1.0", "--version", "3.2.0", "--yes"], "error: '3.1.0' and '--version 3.2.0' choose different versions: pass one, as 'release bump X.Y.Z'"),
        (["bump", "--version", "patch", "--yes"], "error: --version takes a version such as 3.2.0, found 'patch': write 'release bump X.Y.Z' or 'release bump patch'"),
        (["bump", "--version", "soon", "--yes"], "error: --version takes a version such as 3.2.0, found 'soon': write 'release bump X.Y.Z'"),
    ])
    func versionOptionMistakesAreUsageErrorsNamingTheSpelling(arguments: [String], message: String) throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let result = try Self.execute([Self.binary] + arguments + ["--no-branch"], in: repository.path)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.lowercased().contains(message.lowercased()), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("release bump X.Y.Z"), "stderr: \(result.stderr)")
        #expect(!result.stdout.contains(ReleaseKitVersion.string), "stdout: \(result.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
    }

    /// Only `release --version` prints the tool's version; after any other subcommand (every one `release --help`
    /// lists, and a nested one) `--version` is an unknown option, never a silent success.
    @Test func versionAfterAnyOtherSubcommandIsAUsageError() throws {
        try requireBinary()
        let directory = TestTemporary.root
        let root = try Self.execute([Self.binary, "--version"], in: directory)
        #expect(root.status == 0)
        #expect(root.stdout == ReleaseKitVersion.string + "\n")
        let help = try Self.execute([Self.binary, "--help"], in: directory)
        #expect(help.stdout.contains("release --version prints the tool's version."), "\(help.stdout)")
        let listed =
            help.stdout.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n")
            .compactMap { $0.hasPrefix("  ") ? $0.split(separator: " ").first.map(String.init) : nil }
            .filter { $0.first?.isLowercase == true } ?? []
        #expect(listed.count >= 15, "\(help.stdout)")
        for command in listed.filter({ $0 != "bump" && $0 != "help" }).map({ [$0] }) + [["export", "github-actions"], ["version", "--json"]] {
            let result = try Self.execute([Self.binary] + command + ["--version"], in: directory)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            // A subcommand missing a required argument says so first; the others name the option.
            #expect(result.stderr.hasPrefix("Error: "), "\(command): \(result.stderr)")
            #expect(!result.stdout.contains(ReleaseKitVersion.string), "\(command): \(result.stdout)")
        }
        for command in [["run"], ["plan"], ["validate"], ["version"], ["export", "github-actions"], ["steps"], ["schema"]] {
            let result = try Self.execute([Self.binary] + command + ["--version"], in: directory)
            #expect(result.stderr.hasPrefix("Error: Unknown option '--version'"), "\(command): \(result.stderr)")
        }
    }

    /// An option that would have no effect with the others given is a usage error, not ignored.
    @Test(arguments: [
        (
            ["bump", "patch", "--no-branch", "--branch-pattern", "rel/{version}", "--yes"],
            "error: --branch-pattern names the release branch: it cannot be combined with --no-branch"
        ),
        (["bump", "patch", "--no-branch", "--message", "v{version}", "--yes"], "error: --message is the commit's: --no-branch does not commit"),
        (["bump", "patch", "--remote", "upstream", "--yes"], "error: --remote 'upstream' is where --push pushes: add --push, or leave --remote out"),
        (["run", "--rehearsal-storage", "store", "--dry-run"], "error: --rehearsal-storage 'store' is where --rehearse keeps its releases: add --rehearse, or leave it out"),
        // ArgumentParser keeps the last of a single-valued option given twice, and the last of an inverted flag.
        (["bump", "patch", "--build", "1", "--build=2", "--yes", "--no-branch"], "error: '--build' is given twice ('1', then '2'): pass it once"),
        (["bump", "--version", "3.2.0", "--version", "3.3.0", "--yes"], "error: '--version' is given twice ('3.2.0', then '3.3.0'): pass it once"),
        (["bump", "patch", "--branch", "--no-branch", "--yes"], "error: '--branch' and '--no-branch' contradict each other: pass one"),
        (["run", "--profile", "adhoc", "--profile", "release", "--dry-run"], "error: '--profile' is given twice ('adhoc', then 'release'): pass it once"),
        (["zip", "-o", "a.zip", "--output", "b.zip", "Classic"], "error: '--output' is given twice ('a.zip', then 'b.zip'): pass it once"),
    ])
    func optionsWithoutEffectAreUsageErrors(arguments: [String], message: String) throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: repository.plist))
        let result = try Self.execute([Self.binary] + arguments, in: repository.path)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.lowercased().contains(message.lowercased()), "stderr: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repository.plist)) == before)
        #expect(try repository.git("branch", "--list", "release/*") == "")
    }

    @Test func versionCommandPrintsTheReport() throws {
        try requireBinary()
        let repository = try Repository()
        defer { repository.remove() }
        let json = try Self.execute([Self.binary, "version", "--json"], in: repository.path)
        #expect(json.status == 0)
        let expected = try String(contentsOfFile: repository.fixture + "/expected/report.json", encoding: .utf8)
        #expect(json.stdout == expected)
        let table = try Self.execute([Self.binary, "version"], in: repository.path)
        #expect(table.status == 0)
        #expect(table.stdout == "")
        #expect(
            table.stderr.contains("Classic  Release        3.0.0    4146   Classic/Info.plist:18 (CFBundleShortVersionString)  Classic/Info.plist:20 (CFBundleVersion)"),
            "stderr: \(table.stderr)")
        let missing = try Self.execute([Self.binary, "version", "--project", "Nope.xcodeproj"], in: repository.path)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Nope.xcodeproj/project.pbxproj"), "stderr: \(missing.stderr)")
    }

    /// A project nested 50,000 levels deep used to overflow the stack (exit 139); now it is an error with a line.
    @Test func aDeeplyNestedProjectIsAnErrorNotACrash() throws {
        try requireBinary()
        let folder = ReleaseBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/Deep.xcodeproj", withIntermediateDirectories: true)
        let depth = 50_000
        try ("// !$*UTF8*$!\n" + String(repeating: "{a=", count: depth) + "b" + String(repeating: ";}", count: depth) + "\n")
            .write(toFile: folder + "/Deep.xcodeproj/project.pbxproj", atomically: true, encoding: .utf8)
        let result = try Self.execute([Self.binary, "version"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(folder)/Deep.xcodeproj/project.pbxproj:2: dictionaries and arrays nested deeper than 64 levels\n")
    }
}
