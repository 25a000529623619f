import ArgumentParser
import ReleaseExecution
import ReleaseSupport

extension CheckoutRecovery {
    /// ``begin(in:command:grace:)`` for a command: says what it recovered (`note: …` on standard error), and
    /// refuses with exit 1 when another run holds the checkout.
    static func take(in directory: String, command: String) async throws -> Session {
        do {
            let session = try await begin(in: directory, command: command)
            for note in session.notes { Terminal.writeError("note: \(note)\n") }
            return session
        } catch let error as CheckoutLockError {
            Terminal.writeError("error: \(error)\n")
            throw ExitCode(ExitCodes.stepFailed)
        }
    }
}
