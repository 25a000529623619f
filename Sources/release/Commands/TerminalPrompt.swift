import Foundation
import ReleaseExecution
import ReleaseSupport
import ReleaseVersioning

/// Runs the bump menu on the terminal: keys are read one by one (no canonical mode, no echo, no signals) so the
/// arrow keys and digits move the highlighted choice and Enter takes it. The terminal's settings are restored on
/// every way out. Where the terminal cannot be switched, the menu reads whole lines instead.
enum TerminalPrompt {
    static func run(_ prompt: BumpPrompt) -> BumpPromptEditor.Outcome {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return lineBased(prompt) }
        var raw = original
        // Output processing stays on, so "\n" still becomes "\r\n".
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSANOW, &raw) == 0 else { return lineBased(prompt) }
        defer { _ = tcsetattr(0, TCSANOW, &original) }
        // With ISIG off, Ctrl-C is a key; a SIGTERM (or a SIGINT from `kill`) still arrives as a signal, and the
        // process exits from the handler, where no `defer` runs: put the terminal back there too.
        nonisolated(unsafe) let saved = original
        Interrupts.shared.handle { _, _ in
            var settings = saved
            _ = tcsetattr(0, TCSANOW, &settings)
            VersioningConsole.line("\ninterrupted: nothing changed")
            // Nothing is written yet and nothing is buffered (the menu writes unbuffered): leave at once, without
            // exit(3)'s handlers and stdio clean-up, which run here on another thread than the menu's blocked read.
            _ = ProcessGroups.killAll(SIGKILL)
            CheckoutLock.releaseHeld()
            _exit(ExitCodes.interrupted)
        }
        defer { Interrupts.shared.reset() }

        var editor = BumpPromptEditor(prompt: prompt, reverseVideo: Terminal.allowsColour())
        VersioningConsole.write(editor.start)
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            var bytes = count <= 0 ? [] : Array(buffer[0..<count])
            // Esc is a key (cancel) and also how an arrow key's sequence starts: a sequence cut between two reads
            // (a slow link) gets a moment to complete before a lone Esc counts as the key.
            while BumpPromptEditor.endsInsideEscapeSequence(bytes), inputArrives(within: 50) {
                let more = read(0, &buffer, buffer.count)
                guard more > 0 else { break }
                bytes += buffer[0..<more]
            }
            let keys: [BumpPromptEditor.Key] = count <= 0 ? [.endOfInput] : BumpPromptEditor.keys(from: bytes)
            for key in keys {
                let (output, outcome) = editor.handle(key)
                VersioningConsole.write(output)
                if outcome != .pending { return outcome }
            }
        }
    }

    /// Whether standard input has bytes to read within `milliseconds`.
    private static func inputArrives(within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) == 1
    }

    private static func lineBased(_ prompt: BumpPrompt) -> BumpPromptEditor.Outcome {
        guard let option = prompt.run(readLine: { Swift.readLine(strippingNewline: true) }, write: VersioningConsole.write) else {
            return .cancelled
        }
        return .chosen(option)
    }
}
