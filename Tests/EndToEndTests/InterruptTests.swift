import Foundation
import ReleaseSupport
import Testing

/// Ctrl-C and SIGTERM as a user or CI sends them to the real binary.
@Suite struct InterruptTests {
    /// Starts `release ARGUMENTS` in `directory` with its output going to files (so nothing can stall on a pipe).
    private func isAlive(_ pidFile: String) -> Bool {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return false
        }
        // A zombie is dead too: it only waits to be reaped.
        return Platform.processIsRunning(pid)
    }

    /// The interrupt arrives while the run is still being planned (reading git, here a `git` that hangs): before
    /// this change it killed the process by signal, as the handler was installed only once the run started, and
    /// the hanging child was left behind.
    @Test func anInterruptBeforeTheRunStartsExits130AndLeavesNoChild() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\necho $$ > \"\(directory)/git.pid.tmp\" && mv \"\(directory)/git.pid.tmp\" \"\(directory)/git.pid\"\nexec sleep 30\n".write(
            toFile: directory + "/bin/git", atomically: true, encoding: .utf8)
        chmod(directory + "/bin/git", 0o755)
        try #"{"version": 1, "steps": [{"id": "a", "uses": "print", "with": {"message": "${git.branch}"}}]}"#
            .write(toFile: directory + "/p.json", atomically: true, encoding: .utf8)
        let process = try ReleaseBinary.start(["run", "p.json"], in: directory, path: directory + "/bin")
        try ReleaseBinary.waitFor(directory + "/git.pid")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        let deadline = Date().addingTimeInterval(5)
        while isAlive(directory + "/git.pid") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!isAlive(directory + "/git.pid"), "the hanging git was left running")
    }

    /// A second Ctrl-C during cleanup stops the cleanup's whole process group (here a shell and a child that
    /// ignore SIGTERM), and the run still prints its summary and writes its report before exiting 130.
    @Test func aSecondInterruptStopsTheCleanupAndStillReports() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try ReleaseBinary.copyFixture("Pipelines/valid/interrupt-cleanup.json", to: directory, as: "pipeline.json")
        let process = try ReleaseBinary.start(["run", "pipeline.json", "--report", "report.json"], in: directory)
        try ReleaseBinary.waitFor(directory + "/archive.started")
        process.interrupt()
        try ReleaseBinary.waitFor(directory + "/sleeper.pid")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)

        // Nothing of the cleanup survives the run.
        let deadline = Date().addingTimeInterval(5)
        while (isAlive(directory + "/cleanup.pid") || isAlive(directory + "/sleeper.pid")) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(!isAlive(directory + "/cleanup.pid"))
        #expect(!isAlive(directory + "/sleeper.pid"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/cleanup.done"))

        let stderr = try String(contentsOfFile: directory + "/stderr.txt", encoding: .utf8)
        #expect(stderr.contains("interrupted again: stopping always-steps"))
        #expect(stderr.contains("interrupted in ") && stderr.contains("(exit 130)"), "\(stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/report.json"))) as? [String: Any]
        #expect(report?["interrupted"] as? Bool == true)
        #expect(report?["exit_code"] as? Int == 130)
        let steps = report?["steps"] as? [[String: Any]] ?? []
        #expect(steps.map { "\($0["id"] ?? "")=\($0["status"] ?? "")" } == ["archive=cancelled", "cleanup=cancelled"])
    }

    /// Closing the terminal (here: the master side of a pseudo-terminal, as a terminal emulator or a dropped SSH
    /// connection does) sends SIGHUP. Before this change it killed `release` by signal (129 in a shell): the
    /// always-step never ran and the running step's process group kept going. Now it is an interrupt like Ctrl-C.
    @Test func aHangUpRunsAlwaysStepsStopsTheRunningStepAndExits130() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try #"""
        {"version": 1, "steps": [
          {"id": "work", "uses": "shell", "with": {"run": ["sh", "-c", "echo $$ > work.pid.tmp && mv work.pid.tmp work.pid; touch work.started; exec sleep 300"]}},
          {"id": "cleanup", "uses": "shell", "always": true, "needs": ["work"], "with": {"run": ["touch", "cleanup.done"]}}
        ]}
        """#.write(toFile: directory + "/p.json", atomically: true, encoding: .utf8)
        // pty.fork makes the child a session leader on the pseudo-terminal; closing the master hangs it up.
        let script = """
            import json, os, pty, select, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            deadline = time.time() + 60
            while not os.path.exists("work.started") and time.time() < deadline:
                try:
                    ready, _, _ = select.select([fd], [], [], 0.05)
                    if ready:
                        os.read(fd, 65536)
                except OSError:
                    break
            os.close(fd)
            _, status = os.waitpid(pid, 0)
            print(json.dumps({"code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                              "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None}))
            """
        let outcome = try ReleaseBinary.run(
            ["python3", "-c", script, ReleaseBinary.path, "run", "p.json"], in: directory,
            executable: "/usr/bin/env")
        let status = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(status?["signal"] is NSNull, "killed by signal \(status?["signal"] ?? "?"): \(outcome.stderr)")
        #expect(status?["code"] as? Int == 130, "\(outcome.stdout)\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/cleanup.done"), "the always-step did not run")
        let deadline = Date().addingTimeInterval(5)
        while isAlive(directory + "/work.pid") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!isAlive(directory + "/work.pid"), "the running step was left running")
    }

    /// A signal that reaches `release` before it has installed its handling (here: already pending when it starts,
    /// blocked by the parent across `exec`, which is the earliest a signal can come) ends it with 130 before anything
    /// runs. Before this change SIGINT and SIGTERM were dropped (setting them to `SIG_IGN` discards a pending signal)
    /// and SIGHUP was never taken: the run went ahead and succeeded.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalArrivingBeforeHandlingIsInstalledExits130(signal: Int32) throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try #"{"version": 1, "steps": [{"id": "a", "uses": "shell", "with": {"run": ["touch", "ran"]}}]}"#
            .write(toFile: directory + "/p.json", atomically: true, encoding: .utf8)
        let script = """
            import os, signal, sys
            number = int(sys.argv[1])
            signal.pthread_sigmask(signal.SIG_BLOCK, {number})
            os.kill(os.getpid(), number)
            os.execv(sys.argv[2], sys.argv[2:])
            """
        let outcome = try ReleaseBinary.run(
            ["python3", "-c", script, "\(signal)", ReleaseBinary.path, "run", "p.json"], in: directory,
            executable: "/usr/bin/env")
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/ran"), "the run went ahead")
    }

    /// A report that cannot be written is a failure, not a success with a message.
    @Test func aReportThatCannotBeWrittenFailsTheRun() throws {
        let directory = ReleaseBinary.temporaryDirectory()
        try #"{"version": 1, "steps": [{"id": "a", "uses": "print", "with": {"message": "hi"}}]}"#
            .write(toFile: directory + "/p.json", atomically: true, encoding: .utf8)
        let outcome = try ReleaseBinary.run(["run", "p.json", "--report", directory + "/missing-folder/report.json"], in: directory)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("error: cannot write the report '\(directory)/missing-folder/report.json'"))
    }
}
